import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
for (const [w,h] of [[1440,900],[390,844]]) for (const scheme of ['light','dark']) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme });
  const page = await ctx.newPage();
  for (const [name, url] of [['erp','http://127.0.0.1:8791/'],['store','http://127.0.0.1:8792/']]) {
    await page.goto(url);
    await page.screenshot({ path: `/tmp/demo-try/${name}-${w}-${scheme}.png`, fullPage: true });
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    console.log(name, w, scheme, 'scrollWidth', sw);
  }
  await ctx.close();
}
await browser.close();
