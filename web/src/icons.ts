// Icons as inline SVG (no emoji or media symbols: many systems have no font for them and show
// empty boxes). Each icon is a path in a 24x24 box drawn with the current text colour; a
// button with an icon gets an accessible name and a tooltip from `label`.
import { el } from './tiles';
import { h } from './ui';

const PATHS: Record<string, string> = {
  first: 'M21 5v14l-7.5-7zM13.5 5v14L6 12zM3.5 5H6v14H3.5z',
  prev: 'M16 6v12l-9-6z',
  play: 'M6 3.5v17L20 12z',
  pause: 'M7 5h4v14H7zM13 5h4v14h-4z',
  next: 'M8 6v12l9-6z',
  last: 'M3 5v14l7.5-7zM10.5 5v14l7.5-7zM18 5h2.5v14H18z',
  'rotate-left': 'M12 5a7 7 0 1 1-7 7h2.2A4.8 4.8 0 1 0 12 7.2V10L7.5 6 12 2z',
  'rotate-right': 'M12 5a7 7 0 1 0 7 7h-2.2A4.8 4.8 0 1 1 12 7.2V10l4.5-4L12 2z',
  fit: 'M4 4h6v2H6v4H4zM20 4v6h-2V6h-4V4zM4 20v-6h2v4h4v2zM20 20h-6v-2h4v-4h2z',
  plus: 'M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z',
  minus: 'M5 11h14v2H5z',
  close: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z',
  check: 'M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6L20.1 8.4 18.7 7z',
  trophy: 'M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V18h3v2H8v-2h3v-3.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3zm0 4H6v1a2 2 0 0 0 1 1.7zm10 0v2.7A2 2 0 0 0 18 8V7z',
  crown: 'M3 7l4.5 4L12 4l4.5 7L21 7l-2 11H5zm2.4 13h13.2v1.5H5.4z',
  help: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 16.5a1.3 1.3 0 1 1 0-2.6 1.3 1.3 0 0 1 0 2.6zm1.2-5.1v.8h-2.3v-1.2c0-1.4.8-2 1.6-2.6.7-.5 1.2-.9 1.2-1.6 0-.8-.7-1.4-1.7-1.4s-1.8.6-1.9 1.6H7.8C8 6.8 9.7 5.5 12 5.5c2.3 0 3.9 1.3 3.9 3.2 0 1.5-.9 2.3-1.8 2.9-.6.5-.9.8-.9 1.8z',
  link: 'M10.6 13.4a1 1 0 0 1 0-1.4l3.5-3.5a1 1 0 1 1 1.4 1.4L12 13.4a1 1 0 0 1-1.4 0zM8.5 19.5a4 4 0 0 1-2.8-6.8l2.1-2.1 1.4 1.4-2.1 2.1a2 2 0 0 0 2.8 2.8l2.1-2.1 1.4 1.4-2.1 2.1a4 4 0 0 1-2.8 1.2zm7.6-6.1-1.4-1.4 2.1-2.1a2 2 0 0 0-2.8-2.8l-2.1 2.1-1.4-1.4 2.1-2.1a4 4 0 1 1 5.6 5.6z',
  download: 'M11 4h2v8.2l3.3-3.3 1.4 1.4L12 16l-5.7-5.7 1.4-1.4 3.3 3.3zM5 18h14v2H5z',
  replay: 'M12 4a8 8 0 1 1-8 8h2a6 6 0 1 0 1.8-4.3L10 10H4V4l2.3 2.3A8 8 0 0 1 12 4zm-1 4h2v4.4l3 1.8-1 1.7-4-2.4z',
  enter: 'M19 6v6H8.8l3.6-3.6L11 7l-6 6 6 6 1.4-1.4L8.8 14H21V6z',
  keyboard: 'M3 6h18a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1zm1 2v8h16V8zm1 1h2v2H5zm3 0h2v2H8zm3 0h2v2h-2zm3 0h2v2h-2zm3 0h2v2h-2zM7 13h10v2H7z',
};

export type IconName = keyof typeof PATHS;

// An icon (decorative: hidden from assistive technology; the button or text around it names it).
export function icon(name: string, size = 18): SVGSVGElement {
  const svg = el('svg', { viewBox: '0 0 24 24', width: size, height: size, class: `icon icon-${name}`, 'aria-hidden': 'true', focusable: 'false' });
  svg.append(el('path', { d: PATHS[name] ?? '', fill: 'currentColor' }));
  return svg;
}

// A button showing an icon (and optional text), named by `label` for screen readers and tooltips.
export function iconButton(name: string, label: string, attrs: Record<string, unknown> = {}, text?: string): HTMLElement {
  const b = h('button', { class: 'btn', title: label, 'aria-label': label, type: 'button', ...attrs });
  b.append(icon(name));
  if (text) b.append(h('span', {}, text));
  return b;
}
