import { describe, expect, it } from 'vitest';
import { api } from '../src';

const { renderRateMail, unknownRateMailTags, RATE_MAIL_TAGS, rateEmailTemplateFields, sendRateBody } =
  api.rateDelivery;

const values = Object.fromEntries(
  RATE_MAIL_TAGS.map((t) => [t, `<${t}>`]),
) as api.rateDelivery.RateMailValues;

describe('rate e-mail tags', () => {
  it('replaces every known tag, as often as it appears', () => {
    const text = RATE_MAIL_TAGS.map((t) => `{${t}}`).join('|');
    expect(renderRateMail(text, values)).toBe(RATE_MAIL_TAGS.map((t) => `<${t}>`).join('|'));
    expect(renderRateMail('{carrier_name} and {carrier_name}', values)).toBe(
      '<carrier_name> and <carrier_name>',
    );
  });

  it('leaves unknown tags and plain braces as written', () => {
    expect(renderRateMail('{nope} { carrier_name } {}', values)).toBe('{nope} { carrier_name } {}');
    expect(unknownRateMailTags('{nope} {carrier_name} {nope} {other}')).toEqual(['nope', 'other']);
  });

  it('inserts values literally (a value with braces or $ is not expanded again)', () => {
    const tricky = { ...values, carrier_name: '{rate_table_name} $& $1' };
    expect(renderRateMail('Dear {carrier_name}', tricky)).toBe('Dear {rate_table_name} $& $1');
  });
});

describe('rate e-mail template and send rules', () => {
  const base = { name: 'T', from_email: 'a@b.test' };
  it('needs a From address and valid CC addresses (deduplicated, lower case)', () => {
    expect(rateEmailTemplateFields.safeParse({ ...base, from_email: '' }).error?.issues[0]?.message).toBe(
      'fromEmailRequired',
    );
    expect(rateEmailTemplateFields.safeParse({ ...base, cc: ['x'] }).success).toBe(false);
    expect(rateEmailTemplateFields.parse({ ...base, cc: ['A@b.test', 'a@B.test'] }).cc).toEqual(['a@b.test']);
  });

  it('needs a deadline later than now and at least one recipient', () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const future = new Date(Date.now() + 3600_000).toISOString();
    const r = sendRateBody.safeParse({ template_id: 1, emails: ['a@b.test'], download_deadline: past });
    expect(r.error?.issues.map((i) => i.message)).toEqual(['deadlineInFuture']);
    const none = sendRateBody.safeParse({ template_id: 1, download_deadline: future });
    expect(none.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['client_ids', 'selectRecipients'],
    ]);
    expect(sendRateBody.parse({ template_id: 1, client_ids: [3], download_deadline: future })).toMatchObject({
      emails: [],
      effective_from: null,
    });
  });
});
