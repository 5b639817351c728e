import { chromium } from 'playwright';
const base = 'http://localhost:8090';
const [user, pass, lang, ...paths] = process.argv.slice(2);
const r = await fetch(`${base}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email_or_name: user, password: pass }) });
const token = (await r.json()).payload.token;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.addInitScript(([t, l]) => { localStorage.setItem('token', t); localStorage.setItem('languages', l); }, [token, lang]);
for (const p of paths) {
  await page.goto(`${base}/#${p}`);
  await page.waitForTimeout(2500);
  const name = `/tmp/shots/${lang}-${user}-${p.replace(/[^a-z0-9]+/gi, '_')}.png`;
  await page.screenshot({ path: name, fullPage: false });
  console.log(name);
}
await browser.close();
