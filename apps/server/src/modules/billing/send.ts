import { message } from '@tandem/contract';
import type { Services } from '../../services';
import { carrierLanguage, sendTemplated } from '../mail-config/templates';
import { invoiceCdrCsv, loadInvoiceDoc, renderInvoicePdf } from './invoice-pdf';
import { issueInvoiceToken, logInvoice, settingOf } from './invoices';
import { operatorOf, publicInvoiceUrl } from './invoice-routes';

/**
 * Sends an invoice to the carrier's billing e-mail (or `to`) from the mail template "Invoice"
 * (event `invoice_sent`, in the carrier's language, through the mail module's `sendTemplated`): the
 * PDF attached or a public link, the CDRs attached or linked as the invoice setting says (and the
 * invoice options ask for CDRs); the links fill the template's {link} tag. Logged in the invoice log
 * (sent, or failed with "Delivery of invoice #N failed: …", also when the template is missing) and
 * in the e-mail log. Answers the error text ('' when the mail was accepted).
 */
export async function sendInvoiceMail(
  s: Services,
  invoiceId: number,
  by: string,
  to?: string,
): Promise<string> {
  const operator = await operatorOf(s);
  const doc = await loadInvoiceDoc(s.db, invoiceId, operator);
  const setting = await settingOf(s.db, doc.invoice_setting_id);
  const address = (to ?? '').trim() || doc.carrier.billing_email;
  const fail = async (error: string) => {
    await logInvoice(s.db, {
      invoice_id: invoiceId,
      client_id: doc.client_id,
      invoice_number: doc.invoice_number,
      action: 'sent',
      status: 'failed',
      message: `${message('invoiceDeliveryFailed', 'en', [doc.invoice_number])}: ${error}`,
      created_by: by,
    });
    return error;
  };
  if (!address) return fail(message('noBillingEmail', 'en'));
  const lang = await carrierLanguage(s.db, doc.client_id);
  const attachments: { filename: string; content: Buffer; contentType: string }[] = [];
  const links: string[] = [];
  let url = '';
  if (setting.invoice_delivery === 'link' || (doc.options.attach_cdr && setting.cdr_delivery === 'link'))
    url = await publicInvoiceUrl(s, (await issueInvoiceToken(s.db, invoiceId, setting.link_days)).token);
  if (setting.invoice_delivery === 'link') links.push(message('invoiceMailPdfLink', lang, [url]));
  else
    attachments.push({
      filename: `${doc.invoice_number}.pdf`,
      content: await renderInvoicePdf(doc),
      contentType: 'application/pdf',
    });
  if (doc.options.attach_cdr) {
    if (setting.cdr_delivery === 'link') links.push(message('invoiceMailCdrLink', lang, [`${url}/cdr`]));
    else
      attachments.push({
        filename: `${doc.invoice_number}-cdr.csv`,
        content: await invoiceCdrCsv(s.db, doc),
        contentType: 'text/csv',
      });
  }
  if (url && setting.link_days > 0)
    links.push(message('invoiceMailLinkDays', lang, [String(setting.link_days)]));
  const { error } = await sendTemplated(s, {
    event: 'invoice_sent',
    lang,
    to: address,
    clientId: doc.client_id,
    kind: 'invoice',
    attachments,
    values: {
      carrier_name: doc.carrier.name,
      company_name: doc.carrier.company || doc.carrier.name,
      invoice_number: doc.invoice_number,
      period: `${doc.period_from} – ${doc.period_to}`,
      amount: doc.total,
      currency: doc.currency,
      due_date: doc.due_date,
      link: links.join('\n'),
      operating_company: operator,
    },
  });
  if (error) return fail(error);
  await logInvoice(s.db, {
    invoice_id: invoiceId,
    client_id: doc.client_id,
    invoice_number: doc.invoice_number,
    action: 'sent',
    message: `Sent to ${address}`,
    created_by: by,
  });
  return '';
}
