// Tiny DOM helpers: h() builds elements, toast() shows a short message.

type Child = Node | string | number | false | null | undefined;

export function h(tag: string, attrs: Record<string, unknown> = {}, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'value' && 'value' in e) (e as HTMLInputElement).value = String(v);
    // Through the CSSOM, not a style="" attribute: the server's Content-Security-Policy allows
    // no inline style attributes (style-src 'self').
    else if (k === 'style') e.style.cssText = String(v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    e.append(typeof c === 'number' ? String(c) : c);
  }
  return e;
}

export function toast(message: string) {
  let box = document.querySelector('.toasts');
  if (!box) {
    box = h('div', { class: 'toasts' });
    document.body.append(box);
  }
  // one notice at a time: a new one replaces the one shown (the same one said again stays up
  // longer), so notices never pile up over the board
  const t = h('div', { class: 'toast', role: 'status' }, message);
  box.replaceChildren(t);
  setTimeout(() => t.remove(), 4000);
}

// The player asked the system for less motion: animations are cut short or left out.
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// Copies text to the clipboard (the Clipboard API, else the selected input and execCommand).
export async function copyText(text: string, input?: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!input) return false;
    input.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

// A touch screen (the page says "tap" instead of "click").
export function coarsePointer(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}
