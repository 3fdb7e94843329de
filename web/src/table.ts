// "The table talks" (issue #39): the chat between the seats of a game with a friend, the turn
// notification while the tab is in the background (title prefix and favicon badge always; a
// sound and a browser notification once the player opted in), and the rematch.
import { api, ApiError, tokens, type ChatLine, type GameView } from './api';
import { t } from './i18n';
import { h, toast } from './ui';

// --- chat -------------------------------------------------------------------------------------
// The server's limit (src/server/server_limits.h, kMaxChatMessageBytes): the box stops there.
export const CHAT_MAX_BYTES = 500;

export class ChatPanel {
  readonly el: HTMLElement;
  private list: HTMLElement;
  private input: HTMLInputElement;
  private send: HTMLButtonElement;
  private spectators: HTMLInputElement;
  private form: HTMLElement;
  private lines: ChatLine[] = [];
  private fetched = -1;  // chat_count the lines were read at
  private loading = false;

  constructor(private id: string, private token: () => string | null, private seatOf: () => number) {
    this.list = h('ol', { class: 'chat-list', 'data-testid': 'chat-list', 'aria-live': 'polite', 'aria-label': t('chat.messages'), tabindex: 0 });
    this.input = h('input', { type: 'text', class: 'chat-input', 'data-testid': 'chat-input', 'aria-label': t('chat.inputLabel'), placeholder: t('chat.placeholder'), maxlength: CHAT_MAX_BYTES, autocomplete: 'off' }) as HTMLInputElement;
    this.send = h('button', { class: 'btn', type: 'submit', 'data-testid': 'chat-send' }, t('chat.send')) as HTMLButtonElement;
    this.spectators = h('input', { type: 'checkbox', 'data-testid': 'chat-spectators', onchange: () => void this.setSpectators(this.spectators.checked) }) as HTMLInputElement;
    this.form = h('form', { class: 'chat-form', onsubmit: (e: Event) => { e.preventDefault(); void this.post(); } }, this.input, this.send);
    this.el = h('section', { class: 'panel chat', 'data-testid': 'chat', 'aria-label': t('chat.title') },
      h('h4', {}, t('chat.title')), this.list, this.form,
      h('label', { class: 'chat-spectators' }, this.spectators, t('chat.spectators')));
    this.el.hidden = true;
  }

  // Called with every new view: shows the panel in a game with a friend (to its seats, and to
  // spectators when the players allowed it), reads new messages.
  update(v: GameView) {
    const mine = !!this.token();
    const friends = (v.players ?? []).some((p) => p.type === 'remote');
    this.el.hidden = !friends || v.status === 'view' || (!mine && !v.chat_public);
    this.form.hidden = !mine;
    (this.spectators.parentElement as HTMLElement).hidden = !mine;
    const seat = this.seatOf();
    if (mine && seat >= 0) this.spectators.checked = !!v.players?.[seat]?.chat_public;
    if (this.el.hidden) return;
    if (v.chat) this.show(v.chat);
    else if ((v.chat_count ?? 0) !== this.fetched && mine) void this.read(v.chat_count ?? 0);
  }

  private async read(count: number) {
    if (this.loading) return;
    this.loading = true;
    try {
      const r = await api.chat(this.id, this.token());
      this.fetched = count;
      this.show(r.chat);
    } catch {
      /* the next view asks again */
    } finally {
      this.loading = false;
    }
  }

  private show(lines: ChatLine[]) {
    if (lines.length === this.lines.length && lines.every((l, i) => l.at === this.lines[i].at && l.text === this.lines[i].text)) return;
    this.lines = lines;
    const seat = this.seatOf();
    this.list.replaceChildren(...(lines.length ? lines.slice(-50).map((l) => h('li', { class: l.seat === seat ? 'own' : '' },
      h('b', {}, l.name), ': ', h('span', { class: 'chat-text' }, l.text))) : [h('li', { class: 'muted' }, t('chat.empty'))]));
    this.list.scrollTop = this.list.scrollHeight;
  }

  private async post() {
    const token = this.token();
    const text = this.input.value.trim();
    if (!token || !text) return;
    if (new TextEncoder().encode(text).length > CHAT_MAX_BYTES) { toast(t('chat.tooLong', { n: CHAT_MAX_BYTES })); return; }
    this.send.disabled = true;
    try {
      const r = await api.say(this.id, token, { text });
      this.input.value = '';
      this.show(r.chat);
    } catch (e) {
      toast(e instanceof ApiError && e.status === 429 ? t('chat.tooFast') : t('chat.error', { msg: (e as Error).message }));
    } finally {
      this.send.disabled = false;
      this.input.focus();
    }
  }

  private async setSpectators(on: boolean) {
    const token = this.token();
    if (!token) return;
    try {
      await api.say(this.id, token, { spectators: on });
    } catch (e) {
      toast(t('chat.error', { msg: (e as Error).message }));
    }
  }
}

// --- turn notification --------------------------------------------------------------------------
const ALERTS_KEY = 'carc.alerts';
interface Alerts { sound: boolean; notify: boolean }
function loadAlerts(): Alerts {
  try {
    const a = JSON.parse(localStorage.getItem(ALERTS_KEY) || '{}');
    return { sound: a.sound === true, notify: a.notify === true };
  } catch {
    return { sound: false, notify: false };
  }
}
function saveAlerts(a: Alerts) {
  try {
    localStorage.setItem(ALERTS_KEY, JSON.stringify(a));
  } catch {
    /* not remembered */
  }
}

// The favicon with a red badge (the page's own icon, index.html, with a dot).
const BADGE_ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' fill='%237cb342'/%3E%3Cpath d='M0 0h16Q8 9 0 0z' fill='%23c8a165'/%3E%3Ccircle cx='11.5' cy='11.5' r='4.5' fill='%23d32f2f' stroke='%23fff'/%3E%3C/svg%3E";

export class TurnAlert {
  private baseTitle = document.title;
  private baseIcon: string | null = null;
  private on = false;
  private alerts = loadAlerts();
  private onVisible = () => { if (!document.hidden) this.clear(); };

  constructor() {
    document.addEventListener('visibilitychange', this.onVisible);
  }

  destroy() {
    document.removeEventListener('visibilitychange', this.onVisible);
    this.clear();
  }

  // It became this player's turn (`who`: a hot-seat name, or ''): when the tab is hidden, the
  // title and the icon say so until the tab is seen again, with a sound and a notification if
  // the player asked for them.
  turn(who: string) {
    if (!document.hidden || this.on) return;
    this.on = true;
    const prefix = t('alert.titlePrefix');
    this.baseTitle = document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
    document.title = prefix + this.baseTitle;
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (link) {
      this.baseIcon ??= link.href;
      link.href = BADGE_ICON;
      link.setAttribute('data-badge', '1');
    }
    if (this.alerts.sound) beep();
    if (this.alerts.notify && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      try {
        new Notification(t('alert.notifyTitle'), { body: who ? t('alert.notifyBodyNamed', { name: who }) : t('alert.notifyBody'), tag: 'carc-turn' });
      } catch {
        /* notifications from a page may be refused (some mobile browsers): the title still says it */
      }
    }
  }

  clear() {
    if (!this.on) return;
    this.on = false;
    document.title = this.baseTitle;
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (link && this.baseIcon) {
      link.href = this.baseIcon;
      link.removeAttribute('data-badge');
    }
  }

  // The player's choices: a sound, a browser notification (asks the browser's permission).
  panel(): HTMLElement {
    const sound = h('input', { type: 'checkbox', checked: this.alerts.sound, 'data-testid': 'alert-sound', onchange: () => {
      this.alerts.sound = sound.checked;
      saveAlerts(this.alerts);
      if (sound.checked) beep();  // so the player hears what it sounds like
    } }) as HTMLInputElement;
    const notify = h('input', { type: 'checkbox', checked: this.alerts.notify, 'data-testid': 'alert-notify', onchange: async () => {
      if (notify.checked && typeof Notification !== 'undefined' && Notification.permission !== 'granted') {
        const p = await Notification.requestPermission().catch(() => 'denied' as NotificationPermission);
        if (p !== 'granted') {
          notify.checked = false;
          toast(t('alert.denied'));
        }
      }
      this.alerts.notify = notify.checked;
      saveAlerts(this.alerts);
    } }) as HTMLInputElement;
    if (typeof Notification === 'undefined') notify.disabled = true;
    return h('details', { class: 'panel alerts', 'data-testid': 'alerts' },
      h('summary', {}, t('alert.title')),
      h('p', { class: 'muted' }, t('alert.always')),
      h('label', {}, sound, t('alert.sound')),
      h('label', {}, notify, t('alert.notify')));
  }
}

// A short two-tone chime (Web Audio; no sound file to load).
function beep() {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext: typeof AudioContext }).webkitAudioContext;
    const ctx = new Ctx();
    const g = ctx.createGain();
    g.gain.value = 0.08;
    g.connect(ctx.destination);
    [660, 880].forEach((f, i) => {
      const o = ctx.createOscillator();
      o.frequency.value = f;
      o.connect(g);
      o.start(ctx.currentTime + i * 0.15);
      o.stop(ctx.currentTime + i * 0.15 + 0.12);
    });
    setTimeout(() => void ctx.close(), 600);
  } catch {
    /* no audio here */
  }
}

// --- rematch ----------------------------------------------------------------------------------
// Asks for the rematch (or finds the one asked for already) and goes there.
export async function startRematch(id: string) {
  const mine = tokens.get(id);
  const token = Object.values(mine)[0];
  if (!token) return;
  try {
    const r = await api.rematch(id, token);
    goToRematch(id, r.id);
  } catch (e) {
    toast(t('rematch.error', { msg: (e as Error).message }));
  }
}

// The same seats hold the same tokens in the rematch: this browser's tokens (and a creator's
// friends' links) are copied to the new game, then the page opens it.
export function goToRematch(oldId: string, newId: string) {
  for (const [seat, token] of Object.entries(tokens.get(oldId))) tokens.set(newId, Number(seat), token);
  for (const [seat, token] of Object.entries(tokens.invites(oldId))) tokens.setInvite(newId, Number(seat), token);
  location.hash = `#/game/${newId}`;
}
