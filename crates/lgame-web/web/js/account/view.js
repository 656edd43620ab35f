// @ts-check
// The account's settings (`#/account`), drawn: who is logged in, changing the email address
// and choosing what is mailed to it (account/mail.js), the password, this browser's
// notifications (account/push.js),
// logging out of every other session, downloading one's data, closing the account (with the
// password, confirmed). Without a session: the ways to log in or sign up.

import * as api from '../api.js';
import * as session from '../session.js';
import { h, panel } from '../dom.js';
import { t, language } from '../i18n.js';
import { href } from '../address.js';
import { AccountCtrl } from './ctrl.js';
import { field, formEnd, note } from './forms.js';
import { emailSettings, mailChoices } from './mail.js';
import { pushSupported, enableNotifications, disableNotifications, notificationsSubscribed, NoPushService } from './push.js';

/**
 * A date from unix seconds, the language's way.
 * @param {number} seconds
 */
export function dateOf(seconds) {
  return new Intl.DateTimeFormat(language(), { dateStyle: 'medium' }).format(new Date(seconds * 1000));
}

/** Browsers and systems by the mark their `User-Agent` carries, the more particular first. */
const BROWSERS = [['Edg/', 'Edge'], ['OPR/', 'Opera'], ['Firefox/', 'Firefox'], ['Chrome/', 'Chrome'], ['Safari/', 'Safari']];
const SYSTEMS = [['Android', 'Android'], ['iPhone', 'iPhone'], ['iPad', 'iPad'], ['Windows', 'Windows'], ['Mac OS X', 'macOS'], ['CrOS', 'ChromeOS'], ['Linux', 'Linux']];

/**
 * A session's browser as a person names it ("Chrome on Android"), from its own words (the
 * `User-Agent`, shown whole on hover); those words when they name no browser known here.
 * @param {string} agent
 */
export function deviceName(agent) {
  const found = (/** @type {string[][]} */ marks) => marks.find(([mark]) => agent.includes(mark))?.[1];
  const browser = found(BROWSERS);
  if (!browser) return agent;
  const system = found(SYSTEMS);
  return system ? t('account.browserOn', { browser, system }) : browser;
}

/** The ways in, for a page nobody is logged in to. */
export function loggedOutView() {
  return h('section', { class: 'panel prose logged-out' },
    h('p', { text: t('account.notLoggedIn') }),
    h('p', {},
      h('a', { class: 'to-login', href: href('login', { next: '#/account' }), text: t('account.login') }), ' · ',
      h('a', { class: 'to-signup', href: href('signup', { next: '#/account' }), text: t('account.signup') })));
}

/**
 * @param {HTMLElement} main
 */
export async function render(main) {
  const who = await session.load();
  main.append(h('h1', { text: t('title.account') }));
  if (!who) {
    main.append(loggedOutView());
    return;
  }
  const ctrl = new AccountCtrl(() => redraw());
  const input = (/** @type {string} */ id, /** @type {string} */ autocomplete) =>
    h('input', { id, name: id, type: 'password', required: true, autocomplete });
  const current = input('current-password', 'current-password');
  const fresh = input('new-password', 'new-password');
  const closing = input('close-password', 'current-password');
  const [passwordEnd, sessionsNote, closeEnd, closedNote] = [0, 1, 2, 3].map(() => h('div', { class: 'part' }));
  const draw = {
    password: panel(passwordEnd, (/** @type {Parameters<typeof formEnd>[0] & { message: string }} */ s) =>
      h('div', { class: 'part' }, note('password-done', s.message), formEnd(s))),
    sessions: panel(sessionsNote, (/** @type {SessionsSlice} */ s) => sessionsView(s, (one) => ctrl.endSession(one))),
    close: panel(closeEnd, formEnd),
    closed: panel(closedNote, (/** @type {string} */ s) => h('div', { class: 'part' }, note('closed-done', s))),
  };
  const email = emailSettings(ctrl, who.email);
  const mail = mailChoices(ctrl);
  const endSessions = h('button', { type: 'button', class: 'end-sessions', text: t('account.endSessions') });
  // The account's name in each password form, for the browser's password manager.
  const user = () => h('input', { type: 'text', name: 'username', autocomplete: 'username', value: who.username, hidden: true, readonly: true });
  const passwordForm = h('form', { class: 'password-form' },
    h('h2', { text: t('account.changePassword') }), user(),
    field(t('account.currentPassword'), current),
    field(t('account.newPassword'), fresh, t('account.passwordHint')),
    passwordEnd);
  const closeForm = h('form', { class: 'close-form' },
    h('h2', { text: t('account.close') }), user(),
    h('p', { class: 'muted', text: t('account.closeAbout') }),
    field(t('account.closePassword'), closing),
    closeEnd);
  const settings = h('section', { class: 'panel prose account-settings' },
    h('p', { class: 'who' }, t('account.loggedInAs', { name: who.username }), ' ',
      h('a', { class: 'to-profile', href: `/@/${encodeURIComponent(who.username)}`, text: t('account.profile') })),
    h('p', { class: 'muted', text: t('account.since', { date: dateOf(who.created) }) }),
    email.form,
    mail.part,
    passwordForm,
    h('h2', { text: t('account.sessions') }), h('div', { class: 'row' }, endSessions), sessionsNote,
    notificationsPart(),
    h('h2', { text: t('account.data') }),
    h('p', {}, h('a', { class: 'download', href: api.account.exportUrl, download: 'lgame-account.json', text: t('account.download') })),
    closeForm);
  main.append(settings, closedNote);

  passwordForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (await ctrl.changePassword(current.value, fresh.value, t('account.passwordChanged'))) {
      current.value = '';
      fresh.value = '';
    }
  });
  endSessions.addEventListener('click', () => ctrl.endOtherSessions((n) => t('account.sessionsEnded', { n })));
  closeForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!confirm(t('account.confirmClose'))) return;
    if (await ctrl.close(closing.value, t('account.closed'))) settings.hidden = true;
  });

  function redraw() {
    const busy = ctrl.busy !== null;
    email.draw();
    mail.draw();
    draw.password({ error: ctrl.errors.password || '', busy, submit: t('account.changePassword'), message: ctrl.messages.password || '' });
    draw.sessions({ list: ctrl.sessions, busy, message: ctrl.messages.sessions || '', error: ctrl.errors.sessions || '' });
    draw.close({ error: ctrl.errors.close || '', busy, submit: t('account.closeSubmit') });
    draw.closed(ctrl.closed ? ctrl.messages.close || '' : '');
  }
  redraw();
  ctrl.loadSessions();
  ctrl.loadMail();
}

/**
 * @typedef {{ list: import('../api-types.js').SessionInfo[], busy: boolean, message: string, error: string }} SessionsSlice
 */

/**
 * The account's sessions, each with its browser in its own words, its address and last use,
 * and a button that ends it (this browser's marked: ending it logs out).
 * @param {SessionsSlice} s
 * @param {(one: import('../api-types.js').SessionInfo) => void} end
 */
function sessionsView(s, end) {
  return h('div', { class: 'part' },
    h('ul', { class: 'session-list' }, s.list.map((one) => h('li', { class: 'session', 'data-key': one.id, 'data-id': one.id, 'data-current': String(one.current) },
      h('p', { class: 'session-device', title: one.device || '', text: one.device ? deviceName(one.device) : t('account.unknownDevice') }),
      h('p', { class: 'muted session-where', text: t('account.sessionWhere', { address: one.address || '?', used: dateOf(one.used) }) }),
      h('div', { class: 'row' },
        one.current && h('strong', { class: 'session-current', text: t('account.thisBrowser') }),
        h('button', { type: 'button', class: 'end-session', disabled: s.busy, text: t(one.current ? 'account.endThis' : 'account.endSession'), onclick: () => end(one) }))))),
    note('sessions-done', s.message),
    h('p', { class: 'error', role: 'alert', text: s.error }));
}

/**
 * The choice of notifications: whether this browser is subscribed, and the button that turns
 * them on (the browser's permission is asked on the click only) or off.
 * @returns {HTMLElement}
 */
function notificationsPart() {
  const part = h('div', { class: 'notifications' }, h('h2', { text: t('account.notifications') }));
  if (!pushSupported()) {
    part.append(h('p', { class: 'muted', text: t('account.notificationsUnsupported') }));
    return part;
  }
  const state = h('p', { class: 'notifications-state' });
  const on = h('button', { type: 'button', class: 'enable-notifications', text: t('account.notificationsOn') });
  const off = h('button', { type: 'button', class: 'disable-notifications', text: t('account.notificationsOff'), hidden: true });
  const said = note('notifications-done', '');
  const show = (/** @type {boolean} */ subscribed) => {
    state.textContent = t(subscribed ? 'account.notificationsSubscribed' : 'account.notificationsNotSubscribed');
    on.hidden = subscribed;
    off.hidden = !subscribed;
  };
  /** @param {HTMLButtonElement} button @param {() => Promise<string>} act resolves to what it did */
  const pressed = (button, act) => button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      said.textContent = await act();
    } catch (e) {
      said.textContent = e instanceof NoPushService ? t('account.notificationsNoPush') : api.messageOf(e);
    } finally {
      button.disabled = false;
    }
  });
  pressed(on, async () => {
    const answer = await enableNotifications();
    show(answer === 'granted');
    return t(answer === 'granted' ? 'account.notificationsEnabled' : 'account.notificationsRefused');
  });
  pressed(off, async () => {
    await disableNotifications();
    show(false);
    return t('account.notificationsDisabled');
  });
  notificationsSubscribed().then(show, () => {});
  part.append(h('p', { class: 'muted', text: t('account.notificationsAbout') }), state, h('div', { class: 'row' }, on, off), said);
  return part;
}
