// Chart.js set-up shared by every chart: plugins, colours per environment, dark mode, and the tools
// under each chart (download the data as CSV or JSON, zoom with buttons for keyboard users).
const w = /** @type {any} */ (window);
const ChartJs = w.Chart;
for (const p of [w.ChartZoom, w['chartjs-plugin-annotation']]) if (p) ChartJs.register(p);

const dark = matchMedia('(prefers-color-scheme: dark)');
function applyTheme() {
  const css = getComputedStyle(document.documentElement);
  ChartJs.defaults.color = css.getPropertyValue('--muted').trim() || '#666';
  ChartJs.defaults.borderColor = css.getPropertyValue('--line').trim() || '#ddd';
}
applyTheme();
dark.addEventListener('change', () => {
  applyTheme();
  for (const c of Object.values(ChartJs.instances)) /** @type {any} */ (c).update();
});

const PALETTE = { native: '#8c959f', docker: '#0969da', dind: '#e36209', 'dind-vfs': '#8250df' };
const ENGINE_SHADES = ['#e36209', '#cf222e', '#bf8700', '#1a7f37'];

/** A stable colour per environment key: docker blue, native grey, each DinD engine its own shade. @param {string} envKey */
export function colorOf(envKey) {
  const [name, engine] = envKey.split('@');
  if (!engine) return /** @type {any} */ (PALETTE)[name] ?? '#57606a';
  const i = Math.abs([...engine].reduce((h, c) => h * 31 + c.charCodeAt(0), 7)) % ENGINE_SHADES.length;
  return name === 'dind-vfs' ? '#8250df' : ENGINE_SHADES[i];
}

/** @param {string} hex @param {number} a opacity, 0 to 1 */
export const alpha = (hex, a) =>
  `${hex}${Math.round(a * 255)
    .toString(16)
    .padStart(2, '0')}`;

/** @type {Set<any>} */
const live = new Set();

/** @param {HTMLCanvasElement} canvas @param {any} config a Chart.js configuration: any, the vendored Chart.js build carries no types */
export function makeChart(canvas, config) {
  const chart = new ChartJs(canvas, config);
  live.add(chart);
  return chart;
}

export function destroyAll() {
  for (const c of live) c.destroy();
  live.clear();
}

/** @param {Record<string, unknown>[]} rows */
function toCsv(rows) {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (/** @type {unknown} */ v) => {
    const s = v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [cols.join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

/** @param {string} name @param {string} text @param {string} type */
function download(name, text, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * Adds the tools to a chart card's caption: CSV and JSON of the rows behind the chart, and zoom buttons.
 * @param {HTMLElement} card @param {string} name file name without extension
 * @param {() => Record<string, unknown>[]} rows @param {() => any} [chart] when the chart zooms
 */
export function addTools(card, name, rows, chart) {
  const caption = /** @type {HTMLElement} */ (card.querySelector('figcaption'));
  caption.querySelector('.tools')?.remove();
  const tools = document.createElement('span');
  tools.className = 'tools';
  const button = (/** @type {string} */ label, /** @type {string} */ title, /** @type {() => void} */ fn) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.setAttribute('aria-label', `${title}: ${caption.firstChild?.textContent ?? name}`);
    b.addEventListener('click', fn);
    tools.append(b);
  };
  if (chart) {
    button('+', 'Zoom in', () => chart()?.zoom(1.5));
    button('−', 'Zoom out', () => chart()?.zoom(0.67));
    button('reset', 'Reset zoom', () => chart()?.resetZoom());
  }
  button('CSV', 'Download the data as CSV', () => download(`${name}.csv`, toCsv(rows()), 'text/csv'));
  button('JSON', 'Download the data as JSON', () =>
    download(`${name}.json`, JSON.stringify(rows(), null, 2), 'application/json'),
  );
  caption.append(tools);
}
