// @ts-check
// What mail does for an account, drawn: asking for a link that sets a new password
// (`#/forgot`, from the log-in form), the link's form (`#/reset?code=…`: the new password
// twice, then logged in), the link that confirms an address (`#/confirm-email?code=…`:
// confirmed on open), and the settings' email field and choice of mail. A used or expired
// link, and a server that sends no mail, are said in the page's words (account/ctrl.js).

import { h, panel } from '../dom.js';
import { t } from '../i18n.js';
import { href } from '../address.js';
import { AccountCtrl } from './ctrl.js';
import { field, formEnd, note } from './forms.js';

/**
 * A form's end with what its action did above it.
 * @param {Parameters<typeof formEnd>[0] & { message: string, done: string }} s
 */
const endWithNote = (s) => h('div', { class: 'part' }, note(s.done, s.message), formEnd(s));

/** The way to ask for a new link, for a link used or expired. */
const askAgain = () => h('p', {}, h('a', { class: 'to-forgot', href: href('forgot'), text: t('account.askAgain') }));

/**
 * `#/forgot`: a username or an address, and the same answer whatever it names.
 * @param {HTMLElement} main
 */
export function renderForgot(main) {
  const ctrl = new AccountCtrl(() => redraw());
  const who = h('input', {
    id: 'who', name: 'username', autocomplete: 'username', required: true,
    autocapitalize: 'none', spellcheck: 'false',
  });
  const end = h('div', { class: 'part' });
  const drawEnd = panel(end, endWithNote);
  const form = h('form', { class: 'panel account-form forgot-form prose', novalidate: true },
    h('h1', { text: t('title.forgot') }),
    h('p', { class: 'muted', text: t('account.forgotAbout') }),
    field(t('account.usernameOrEmail'), who),
    end,
    h('p', {}, h('a', { class: 'to-login', href: href('login'), text: t('account.backToLogin') })));
  main.append(form);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!who.value.trim()) return who.focus();
    await ctrl.askReset(who.value.trim(), t('account.resetAsked'));
  });

  function redraw() {
    const s = { error: ctrl.errors.forgot || '', busy: ctrl.busy !== null, submit: t('account.sendLink') };
    drawEnd({ ...s, message: ctrl.messages.forgot || '', done: 'forgot-done' });
  }
  redraw();
  who.focus();
}

/**
 * `#/reset?code=…`: the new password twice (sign-up's rules), then logged in and sent on to
 * one's games.
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export function renderReset(main, params) {
  const ctrl = new AccountCtrl(() => redraw());
  /** Why the two passwords cannot be sent (they differ), else empty. */
  let mismatch = '';
  const input = (/** @type {string} */ id) =>
    h('input', { id, name: id, type: 'password', required: true, autocomplete: 'new-password' });
  const fresh = input('new-password');
  const again = input('repeat-password');
  const end = h('div', { class: 'part' });
  const drawEnd = panel(end, (/** @type {Parameters<typeof formEnd>[0] & { used: boolean }} */ s) =>
    h('div', { class: 'part' }, formEnd(s), s.used && askAgain()));
  const form = h('form', { class: 'panel account-form reset-form prose', novalidate: true },
    h('h1', { text: t('title.reset') }),
    field(t('account.newPassword'), fresh, t('account.passwordHint')),
    field(t('account.repeatPassword'), again),
    end);
  main.append(form);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    mismatch = fresh.value === again.value ? '' : t('account.passwordsDiffer');
    const here = location.href;
    if (!mismatch && await ctrl.reset(params.get('code') || '', fresh.value)) {
      // Not when the person went elsewhere while the request was out: their choice stands.
      if (location.href === here) location.hash = '#/games';
      return;
    }
    // Differing or refused: both typed again, from the first.
    redraw();
    fresh.value = '';
    again.value = '';
    fresh.focus();
  });

  function redraw() {
    const used = ctrl.fault === 'bad_code';
    drawEnd({ error: mismatch || ctrl.errors.reset || '', busy: ctrl.busy !== null, submit: t('account.setPassword'), used });
  }
  redraw();
  fresh.focus();
}

/**
 * `#/confirm-email?code=…`: confirmed on open, and said so (or why not).
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export async function renderConfirm(main, params) {
  const ctrl = new AccountCtrl(() => {});
  const confirmed = await ctrl.confirmEmail(params.get('code') || '', t('account.emailConfirmed'));
  main.append(h('section', { class: 'panel prose confirm-email' },
    h('h1', { text: t('title.confirm-email') }),
    confirmed
      ? note('confirm-done', ctrl.messages.confirm || '')
      : h('p', { class: 'error', role: 'alert', text: ctrl.errors.confirm || '' }),
    h('p', {}, h('a', { class: 'to-account', href: href('account'), text: t('account.settings') }))));
}

/**
 * The settings' email field: the address (none when emptied), mailed a link that confirms it.
 * `draw` redraws its end from the account's controller.
 * @param {AccountCtrl} ctrl
 * @param {string | null} current the account's address
 */
export function emailSettings(ctrl, current) {
  const email = h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email', value: current || '' });
  const end = h('div', { class: 'part' });
  const drawEnd = panel(end, endWithNote);
  const form = h('form', { class: 'email-form', novalidate: true },
    h('h2', { text: t('account.emailTitle') }),
    field(t('account.email'), email, t('account.emailHint')),
    end);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const address = email.value.trim();
    const done = address ? t('account.emailChanged', { email: address }) : t('account.emailRemoved');
    if (!(await ctrl.changeEmail(address, done))) email.focus();
  });
  const draw = () => drawEnd({
    error: ctrl.errors.email || '', busy: ctrl.busy !== null, submit: t('account.changeEmail'),
    message: ctrl.messages.email || '', done: 'email-done',
  });
  return { form, draw };
}

/**
 * The settings' choice of mail: a mail when it is one's move in correspondence, saved as soon
 * as it is ticked or not. `draw` redraws it from the account's controller.
 * @param {AccountCtrl} ctrl
 */
export function mailChoices(ctrl) {
  const box = h('input', { type: 'checkbox', id: 'mail-your-move', name: 'your_move' });
  const said = h('div', { class: 'part' });
  const drawSaid = panel(said, (/** @type {{ message: string, error: string }} */ s) =>
    h('div', { class: 'part' }, note('mail-done', s.message), h('p', { class: 'error', role: 'alert', text: s.error })));
  const part = h('div', { class: 'mail-choices' },
    h('h2', { text: t('account.mailTitle') }),
    h('label', { class: 'mail-your-move' }, box, ' ', h('span', { text: t('account.mailYourMove') })),
    h('p', { class: 'muted', text: t('account.mailHint') }),
    said);
  box.addEventListener('change', () =>
    ctrl.chooseMail(box.checked, t(box.checked ? 'account.mailOn' : 'account.mailOff')));
  const draw = () => {
    box.disabled = ctrl.mail === null || ctrl.busy !== null;
    if (ctrl.mail) box.checked = ctrl.mail.your_move;
    drawSaid({ message: ctrl.messages.mail || '', error: ctrl.errors.mail || '' });
  };
  return { part, draw };
}
