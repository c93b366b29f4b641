// Headless Chromium from Debian, driven by playwright-core (no browser download): shared by the site
// tests and `npm run bench:site`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Whether a browser test must skip: false when Chromium is there; otherwise the reason, except under
 * CI=true, where a missing browser fails the suite (.ci/run installs it), as a missing engine does.
 * @returns {false | string}
 */
export function browserOrSkip() {
  if (existsSync(CHROMIUM)) return false;
  const why = `no Chromium at ${CHROMIUM}: \`apt-get install chromium\` (.ci/install-test-tools.sh installs it)`;
  if (process.env.CI) throw new Error(`CI=true but ${why}`);
  return why;
}
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser with a fresh profile; `close()` removes the profile too. */
export async function launch() {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a new page and collects console errors and failed requests.
 * @param {import('playwright-core').BrowserContext} context @param {string} url
 */
export async function openPage(
  context,
  url,
  { colorScheme = /** @type {'light'|'dark'} */ ('light'), width = 1280 } = {},
) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme });
  /** @type {string[]} */
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  /** @type {() => void} */
  let networkChanged = () => {};
  page.on('requestfailed', (r) => {
    errors.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? 'no reason'})`);
    if (/ERR_NETWORK_CHANGED/.test(r.failure()?.errorText ?? '')) networkChanged();
  });
  // Chromium abandons a navigation, and any request of the page still under way, when the machine's network
  // interfaces change (ERR_NETWORK_CHANGED), as they do whenever an engine on the same machine adds or
  // removes a bridge or a container's veth: a module the page imports is then never loaded and the page
  // never gets ready. The page is loaded again, and what it recorded is dropped. Any other failure is the
  // test's, and a page that never got ready says what it logged.
  for (let attempt = 1; ; attempt++) {
    errors.length = 0;
    const changed = new Promise((resolve) => (networkChanged = () => resolve('network changed')));
    try {
      await page.goto(url);
      const ready = page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 }).then(() => 'ready');
      if ((await Promise.race([ready, changed])) === 'ready') break;
      ready.catch(() => {}); // the abandoned wait: the next load's readiness, or its own timeout, ends it
      if (attempt >= 3) throw new Error('the network changed under the page three times');
    } catch (e) {
      if (attempt < 3 && /ERR_NETWORK_CHANGED/.test(String(e))) continue;
      const logged = errors.length ? errors.join('; ') : 'no error on the page';
      throw new Error(`${url} was not ready within 30 s (${logged})`, { cause: e });
    }
  }
  return { page, errors };
}
