import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createCarrierUser, unique, type PortalLogin } from '../support/api';
import { randomIp } from '../support/switch';
import { adminToken, enterAs } from '../support/ui';

/**
 * The client portal's Trunks (`/clients/termination/my_ip_address`): a customer sees its own
 * trunks with the IP addresses it sends from, read only, never another carrier's.
 */

let client: PortalLogin & { clientId: number; carrierName: string };
let mine: string;
let theirs: string;
const ip = randomIp();
const net = randomIp().replace(/\.\d+$/, '.16');

test.beforeAll(async () => {
  const token = await adminToken();
  client = await createCarrierUser(token, { name: unique('TrunkCo') });
  const other = await createCarrierUser(token, { name: unique('OtherCo') });
  mine = unique('trunkco_in');
  theirs = unique('otherco_in');
  const trunk = (carrier: number, name: string, hosts: { host: string; port?: number; netmask?: number }[]) =>
    call(api.trunks.trunk.create, {
      token,
      body: {
        name,
        carrier_id: carrier,
        direction: 'ingress',
        tech_prefix: '4401',
        call_limit: 30,
        hosts: hosts.map((h) => ({
          host_type: 'ip',
          host: h.host,
          port: h.port ?? null,
          netmask: h.netmask ?? 32,
        })),
      } as never,
    });
  await trunk(client.clientId, mine, [
    { host: ip, port: 5060 },
    { host: net, netmask: 28 },
  ]);
  await trunk(other.clientId, theirs, [{ host: randomIp() }]);
});

test('a customer reads its own trunks and their IP addresses from the Termination menu', async ({ page }) => {
  await enterAs(page, client.name, client.password, '/clients/management/analytics_dashboard');
  await page.getByTestId('client-menu').getByTestId('menu-company').hover();
  const item = page.getByTestId('menu-item-my_ip_address');
  await expect(item).toHaveText('Trunks'); // built: no later-version badge
  await item.click();
  await expect(page.locator('h1')).toHaveText('Trunks');
  const row = page.getByTestId(`portal-trunk-${mine}`);
  await expect(row).toContainText('Your calls to us');
  await expect(row.getByTestId('portal-trunk-hosts')).toHaveText(`${ip}:5060, ${net}/28`);
  await expect(row).toContainText('4401');
  await expect(row).toContainText('30');
  await expect(page.getByTestId('portal-trunks')).not.toContainText(theirs);
});
