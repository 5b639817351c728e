import { COLOR_ERROR, COLOR_INFO, FLASH_MS } from '@tandem/contract';
import { notification as antNotification } from 'antd';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

/**
 * The frame's feedback: the flash banner (5 s, red for errors, blue otherwise), field-error toasts
 * with bold labels, and the async confirm dialog (Confirm / Cancel; closes on route change).
 */
interface Feedback {
  flash: (text: string, kind?: 'error' | 'info') => void;
  fieldErrors: (message: string, errors?: Record<string, string>) => void;
  confirm: (opts: { title: string; content?: ReactNode; danger?: boolean }) => Promise<boolean>;
}
const Ctx = createContext<Feedback | null>(null);
export const useFeedback = () => {
  const f = useContext(Ctx);
  if (!f) throw new Error('useFeedback outside FeedbackProvider');
  return f;
};

// The confirm dialog loads on first use, keeping antd's Modal out of the login page's first load.
const ConfirmDialog = lazy(() => import('./ConfirmDialog'));

const labelOf = (field: string) =>
  field
    .replace(/\.\d+\./g, ' ')
    .replace(/[._]/g, ' ')
    .replace(/^\w/, (c) => c.toUpperCase());

export function FeedbackProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [notification, notificationHolder] = antNotification.useNotification();
  const [banner, setBanner] = useState<{ text: string; kind: 'error' | 'info'; id: number } | null>(null);
  const [dialog, setDialog] = useState<{
    title: string;
    content?: ReactNode;
    danger?: boolean;
    resolve: (v: boolean) => void;
  } | null>(null);
  const location = useLocation();
  const dialogRef = useRef(dialog);
  dialogRef.current = dialog;

  useEffect(() => {
    if (!banner) return;
    const timer = setTimeout(() => setBanner(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  // The confirm dialog closes (as cancelled) when the route changes.
  useEffect(() => {
    if (dialogRef.current) {
      dialogRef.current.resolve(false);
      setDialog(null);
    }
  }, [location.pathname]);

  const flash = useCallback(
    (text: string, kind: 'error' | 'info' = 'info') => setBanner({ text, kind, id: Date.now() }),
    [],
  );
  const fieldErrors = useCallback(
    (message: string, errors?: Record<string, string>) => {
      if (errors && Object.keys(errors).length) {
        for (const [field, msg] of Object.entries(errors)) {
          notification.error({
            message: <b data-testid="toast-field">{field === '_' ? t('common.error') : labelOf(field)}</b>,
            description: <span data-testid="toast-message">{msg}</span>,
            placement: 'topRight',
            duration: 6,
          });
        }
      } else if (message) {
        notification.error({
          message: <b>{t('common.error')}</b>,
          description: <span data-testid="toast-message">{message}</span>,
          placement: 'topRight',
          duration: 6,
        });
      }
    },
    [notification, t],
  );
  const confirm = useCallback(
    (opts: { title: string; content?: ReactNode; danger?: boolean }) =>
      new Promise<boolean>((resolve) => setDialog({ ...opts, resolve })),
    [],
  );

  const value = useMemo(() => ({ flash, fieldErrors, confirm }), [flash, fieldErrors, confirm]);
  const close = (v: boolean) => {
    dialog?.resolve(v);
    setDialog(null);
  };
  return (
    <Ctx.Provider value={value}>
      {banner && (
        <div
          role={banner.kind === 'error' ? 'alert' : 'status'}
          data-testid="flash"
          className={`flash flash-${banner.kind}`}
          style={{ background: banner.kind === 'error' ? COLOR_ERROR : COLOR_INFO }}
          onClick={() => setBanner(null)}
        >
          {banner.text}
        </div>
      )}
      {notificationHolder}
      {children}
      {dialog && (
        <Suspense fallback={null}>
          <ConfirmDialog
            title={dialog.title}
            content={dialog.content}
            danger={dialog.danger}
            onClose={close}
          />
        </Suspense>
      )}
    </Ctx.Provider>
  );
}
