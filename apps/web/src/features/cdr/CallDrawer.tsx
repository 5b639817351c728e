import { api, type CdrRow, type Language } from '@tandem/contract';
import { Alert, Card, Descriptions, Drawer, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { Spinner } from '../../components/Spinner';
import { formatCdrValue } from './format';
import './i18n';

type FieldInfo = { name: string; label: Record<Language, string>; type: string; leg: string };
const LEGS = ['call', 'ingress', 'egress', 'operator'] as const;

/**
 * One call: every attempt (a call that failed over has several) with both legs as rated, each leg's
 * fields grouped (rate table, code, rate, billed time, cost), only those the caller may see.
 */
export function CallDrawer(props: {
  callId: string | null;
  onClose: () => void;
  fieldInfo: Map<string, FieldInfo>;
  lang: Language;
  /** The one-call call (the DID CDR list has its own, with its permission). */
  endpoint?: typeof api.cdrSearch.callDetail;
}) {
  const { t } = useTranslation();
  const detail = useApi(
    props.endpoint ?? api.cdrSearch.callDetail,
    { params: { call_id: props.callId ?? '' } },
    { enabled: props.callId !== null, callOptions: { errorMode: 'inline' } },
  );
  const d = detail.data;
  return (
    <Drawer
      open={props.callId !== null}
      onClose={props.onClose}
      width={760}
      title={t('cdr.callDetail', { id: props.callId ?? '' })}
      data-testid="call-drawer"
      destroyOnHidden
    >
      {detail.isLoading ? <Spinner /> : null}
      {detail.error ? <Alert type="warning" showIcon message={t('cdr.noAttempts')} /> : null}
      {d?.attempts.map((a: CdrRow, i) => (
        <Card
          key={String(a.cdr_id)}
          size="small"
          style={{ marginBottom: 12 }}
          data-testid={`attempt-${i + 1}`}
          title={
            <>
              {t('cdr.attempt', { n: typeof a.attempt === 'number' ? a.attempt : i + 1 })}{' '}
              {a.is_final_attempt === true ? <Tag>{t('cdr.final')}</Tag> : null}
            </>
          }
        >
          {LEGS.map((leg) => {
            const names = d.fields.filter((n) => props.fieldInfo.get(n)?.leg === leg);
            if (!names.length) return null;
            return (
              <Descriptions
                key={leg}
                title={t(`cdr.legs.${leg}`)}
                size="small"
                column={2}
                bordered
                style={{ marginBottom: 8 }}
                items={names.map((n) => {
                  const info = props.fieldInfo.get(n);
                  return {
                    key: n,
                    label: info?.label[props.lang] ?? n,
                    children: (
                      <span data-testid={`attempt-${i + 1}-${n}`}>
                        {formatCdrValue(a[n] ?? null, info?.type ?? 'text', t)}
                      </span>
                    ),
                  };
                })}
              />
            );
          })}
        </Card>
      ))}
    </Drawer>
  );
}
