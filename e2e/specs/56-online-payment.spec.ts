import { api } from '@tandem/contract';
import { expect, test } from '@playwright/test';
import { startFakeStripe } from '../../apps/server/test/api/payment-fakes';
import { call, createCarrierUser } from '../support/api';
import { adminToken, enterAs, enterAsAdmin } from '../support/ui';

/**
 * A client tops up online with the card provider (a local fake of Stripe's API): the balance moves
 * when the provider's signed webhook arrives, once whatever the deliveries; the operator sees the
 * top-up in the auto payment log.
 */
test('a client tops up by card; the signed webhook credits once; the new balance shows', async ({
  page,
  browser,
}) => {
  test.slow();
  const token = await adminToken();
  const stripe = await startFakeStripe('sk_test_e2e', 'whsec_e2e');
  try {
    await call(api.onlinePayment.updateGateway, {
      token,
      params: { provider: 'stripe' },
      body: {
        enabled: true,
        public_key: 'pk_test_e2e',
        secret: 'sk_test_e2e',
        webhook_secret: 'whsec_e2e',
        api_url: stripe.url,
        currency: 'USD',
        fee_percent: '2.9',
        fee_fixed: '0.30',
        service_charge_percent: '0',
      },
    });
    // The operator's page shows the keys as stored, never their values.
    await enterAsAdmin(page, '/configuration/payment_setting');
    await expect(page.getByTestId('form-gateway-stripe')).toContainText('stored');
    await expect(page.getByTestId('form-gateway-stripe').getByTestId('field-public_key')).toHaveValue(
      'pk_test_e2e',
    );

    const client = await createCarrierUser(token);
    // The provider's page is outside; the browser is sent there and comes back.
    const ctx = await browser.newContext({ baseURL: process.env.TANDEM_E2E_BASE_URL });
    const cp = await ctx.newPage();
    await ctx.route('https://checkout.stripe.test/**', (r) =>
      r.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Fake Stripe checkout</h1>' }),
    );
    await enterAs(cp, client.name, client.password, '/clients/billing/online_payment?go=pay&amount=10');
    await expect(cp.getByTestId('balance')).toHaveText('0.00 USD');
    await cp.getByTestId('pay').click();
    await expect(
      cp.getByTestId('form-online-payment').getByText('Minimum credit addition is $25.00'),
    ).toBeVisible();
    await cp.getByTestId('field-amount').fill('30.50');
    await cp.getByTestId('pay').click();
    // leaving for the provider's page, and later coming back, loads a whole document
    await expect(cp.getByText('Fake Stripe checkout')).toBeVisible({ timeout: 30_000 });
    const session = [...stripe.sessions.values()].at(-1)!;
    expect(session.amount_total).toBe(3050);

    // Stripe delivers its signed event three times.
    const { raw, signature } = stripe.event(session.id);
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${process.env.TANDEM_E2E_BASE_URL}/api/payment/webhook/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: raw,
      });
      expect(r.status).toBe(200);
    }
    const id = Number(session.metadata.online_payment_id);
    await cp.goto(`${process.env.TANDEM_E2E_BASE_URL}/#/clients/billing/online_payment?go=done&id=${id}`);
    await expect(cp.getByTestId('payment-succeed')).toContainText('30.50 USD were added to your balance', {
      timeout: 30_000,
    });
    await expect(cp.getByTestId('balance')).toHaveText('30.50 USD');

    // The operator's auto payment log shows it as succeeded.
    await ctx.close();
    await page.goto(`${process.env.TANDEM_E2E_BASE_URL}/#/log/auto_payment_log`);
    await expect(page.getByTestId(`payment-status-${id}`)).toHaveText('Succeed');
  } finally {
    await stripe.close();
  }
});
