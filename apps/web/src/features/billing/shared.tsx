import { api } from '@tandem/contract';
import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { i18next } from '../../i18n';
import { formatMoneyText } from '../../lib/money';
import { getToken } from '../../lib/storage';
import { useRerateLookups } from '../rerate/ReratePage';
import './i18n';

/** Money as the portal shows it everywhere: grouped, per language, at the given places. */
export const money = (v: string | null | undefined, decimals = 2, currency?: string) =>
  formatMoneyText(v, { decimals, currency });

/**
 * Opens an invoice's PDF (or saves its CDR CSV): the calls need the session header, so through a
 * blob. `did`: through Origination > DID Invoice's own call (its permission).
 */
export async function openInvoiceFile(id: number, what: 'pdf' | 'cdr', did = false): Promise<string | null> {
  const e =
    what === 'pdf' ? (did ? api.didExtras.invoicePdf : api.billing.invoicePdf) : api.billing.invoiceCdr;
  const res = await fetch(urlOf(e, { params: { id } }), {
    headers: { 'X-Auth-Token': getToken() ?? '', 'X-Lang': i18next.language },
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    return body?.error?.message ?? res.statusText;
  }
  const url = URL.createObjectURL(await res.blob());
  if (what === 'pdf') window.open(url, '_blank');
  else {
    const a = document.createElement('a');
    a.href = url;
    a.download =
      /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `cdr-${id}.csv`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  return null;
}

export function CarrierSelect({
  value,
  onChange,
  testId = 'carrier',
  width = 240,
  didOnly = false,
}: {
  value?: number;
  onChange: (v?: number) => void;
  testId?: string;
  width?: number;
  /** Only the DID clients and vendors (the origination screens). */
  didOnly?: boolean;
}) {
  const { t } = useTranslation();
  const lk = useRerateLookups();
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('billing.carrier')}
      value={value}
      onChange={(v?: number) => onChange(v)}
      style={{ width }}
      data-testid={testId}
      options={
        didOnly
          ? lk.didCarriers
          : [...lk.customers, ...lk.vendors].sort((a, b) => a.label.localeCompare(b.label))
      }
    />
  );
}

export function PayStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  const color = status === 'paid' ? 'green' : status === 'partially_paid' ? 'gold' : 'red';
  return <Tag color={color}>{t(`billing.payStatuses.${status}`)}</Tag>;
}
