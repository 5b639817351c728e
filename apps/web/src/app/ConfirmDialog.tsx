import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The async confirm dialog with Confirm and Cancel (see feedback.tsx). */
export default function ConfirmDialog({
  title,
  content,
  danger,
  onClose,
}: {
  title: string;
  content?: ReactNode;
  danger?: boolean;
  onClose: (ok: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={title}
      onOk={() => onClose(true)}
      onCancel={() => onClose(false)}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger, 'data-testid': 'confirm-ok' }}
      cancelButtonProps={{ 'data-testid': 'confirm-cancel' }}
    >
      {content}
    </Modal>
  );
}
