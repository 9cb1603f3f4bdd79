import { svg, html, type TemplateResult } from 'lit';

/**
 * Hand-drawn SVG charts (no chart library: these few shapes cost less than one would). Each is
 * 360 units wide, so at a 390 px phone its 11-unit labels are drawn at about 11 px; each carries
 * an accessible summary of its numbers.
 */
const WIDTH = 360;
const PALETTE = ['#1d4ed8', '#047857', '#b45309', '#b91c1c', '#6d28d9', '#0e7490', '#be185d', '#4d7c0f', '#374151', '#9a3412'];

/** Vertical bars with a label under each (shown for every `labelEvery`-th bar). */
export function barChart(label: string, bars: { label: string; value: number }[], options: { labelEvery?: number; color?: string } = {}): TemplateResult {
  const height = 160;
  const top = 14;
  const bottom = 24;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const slot = WIDTH / Math.max(1, bars.length);
  const every = options.labelEvery ?? Math.ceil(bars.length / 8);
  const summary = `${label}: ${bars.map((bar) => `${bar.label} ${bar.value}`).join(', ') || 'no data'}`;
  // Side margins so the first and last labels, centred under their bars, are not cut off.
  return html`<svg class="chart" viewBox="-16 0 ${WIDTH + 32} ${height}" role="img" aria-label=${summary}>
    ${bars.map((bar, index) => {
      const h = ((height - top - bottom) * bar.value) / max;
      const x = index * slot + slot * 0.15;
      return svg`<rect x=${x} y=${height - bottom - h} width=${Math.max(1, slot * 0.7)} height=${h} fill=${options.color ?? PALETTE[0]}></rect>
        ${bar.value > 0 && bars.length <= 31 ? svg`<text x=${x + slot * 0.35} y=${height - bottom - h - 3} text-anchor="middle">${bar.value}</text>` : ''}
        ${index % every === 0 ? svg`<text x=${x + slot * 0.35} y=${height - 8} text-anchor="middle">${bar.label}</text>` : ''}`;
    })}
    <line x1="0" x2=${WIDTH} y1=${height - bottom} y2=${height - bottom} stroke="#6b7280"></line>
  </svg>`;
}

/** Horizontal bars, one row per item, with its label and value written out. */
export function horizontalBars(label: string, items: { label: string; value: number }[], unit = ''): TemplateResult {
  const row = 26;
  const height = Math.max(1, items.length) * row;
  const max = Math.max(1, ...items.map((item) => item.value));
  const summary = `${label}: ${items.map((item) => `${item.label} ${item.value}${unit}`).join(', ') || 'no data'}`;
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label=${summary}>
    ${items.map((item, index) => {
      const w = ((WIDTH - 150) * item.value) / max;
      return svg`<text x="0" y=${index * row + 17}>${item.label.slice(0, 18)}</text>
        <rect x="110" y=${index * row + 5} width=${Math.max(1, w)} height="16" fill=${PALETTE[index % PALETTE.length]}></rect>
        <text x=${116 + w} y=${index * row + 17}>${item.value}${unit}</text>`;
    })}
  </svg>`;
}

/** A share (0..1) as one filled bar with its percentage. */
export function shareBar(label: string, share: number, color = '#b91c1c'): TemplateResult {
  const percent = Math.round(share * 1000) / 10;
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} 34" role="img" aria-label="${label}: ${percent}%">
    <rect x="0" y="4" width=${WIDTH - 60} height="20" fill="#e5e7eb"></rect>
    <rect x="0" y="4" width=${(WIDTH - 60) * share} height="20" fill=${color}></rect>
    <text x=${WIDTH - 54} y="19">${percent}%</text>
  </svg>`;
}

/**
 * One bar per day of ratings: 👍 (green) stacked under 👎 (red), total above. A day without
 * ratings has no bar, so it never reads as "all 👎".
 */
export function ratingsChart(label: string, bars: { label: string; up: number; down: number }[]): TemplateResult {
  const height = 160;
  const top = 14;
  const bottom = 24;
  const max = Math.max(1, ...bars.map((bar) => bar.up + bar.down));
  const slot = WIDTH / Math.max(1, bars.length);
  const every = Math.ceil(bars.length / 8);
  const scale = (value: number) => ((height - top - bottom) * value) / max;
  const rated = bars.filter((bar) => bar.up + bar.down > 0);
  const summary = `${label}: ${rated.map((bar) => `${bar.label} ${bar.up} helpful, ${bar.down} not helpful`).join('; ') || 'no data'}`;
  return html`<svg class="chart" viewBox="-16 0 ${WIDTH + 32} ${height}" role="img" aria-label=${summary}>
    ${bars.map((bar, index) => {
      const x = index * slot + slot * 0.15;
      const width = Math.max(1, slot * 0.7);
      const up = scale(bar.up);
      const down = scale(bar.down);
      return svg`<rect x=${x} y=${height - bottom - up} width=${width} height=${up} fill="#047857"></rect>
        <rect x=${x} y=${height - bottom - up - down} width=${width} height=${down} fill="#b91c1c"></rect>
        ${bar.up + bar.down > 0 && bars.length <= 31 ? svg`<text x=${x + slot * 0.35} y=${height - bottom - up - down - 3} text-anchor="middle">${bar.up + bar.down}</text>` : ''}
        ${index % every === 0 ? svg`<text x=${x + slot * 0.35} y=${height - 8} text-anchor="middle">${bar.label}</text>` : ''}`;
    })}
    <line x1="0" x2=${WIDTH} y1=${height - bottom} y2=${height - bottom} stroke="#6b7280"></line>
  </svg>`;
}

