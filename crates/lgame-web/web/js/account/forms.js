// @ts-check
// Logging in (`#/login`) and signing up (`#/signup`), drawn: a form with labelled fields the
// browser's password manager knows (`username`, `current-password`, `new-password`), the
// server's words when it refuses, and the way to the other form. account/ctrl.js acts.

import { h, panel } from '../dom.js';
import { t } from '../i18n.js';
import { href } from '../address.js';
import { AccountCtrl, afterLogin } from './ctrl.js';

/**
 * A labelled field, with a hint under it.
 * @param {string} label
 * @param {HTMLInputElement} input
 * @param {string} [hint]
 */
export function field(label, input, hint) {
  const hintId = hint ? `${input.id}-hint` : null;
  if (hintId) input.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' },
    h('label', { for: input.id, text: label }), input,
    hint && h('p', { class: 'hint muted', id: hintId, text: hint }));
}

/**
 * A message line (a live region): what an action did.
 * @param {string} cls
 * @param {string} text
 */
export const note = (cls, text) => h('p', { class: `note ${cls}`, role: 'status', text });

/**
 * The form's end: its refusal (a live region), and the button (off while it is sent).
 * @param {{ error: string, busy: boolean, submit: string }} s
 */
export function formEnd(s) {
  return h('div', { class: 'part' },
    h('p', { class: 'error', role: 'alert', text: s.error }),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary submit', disabled: s.busy, text: s.submit })));
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params `next`: the page's address to go back to
 * @param {'login' | 'signup'} kind
 */
export function render(main, params, kind) {
  const signup = kind === 'signup';
  const ctrl = new AccountCtrl(() => redraw());
  const next = afterLogin(params.get('next'));
  const username = h('input', {
    id: 'username', name: 'username', autocomplete: 'username', required: true,
    autocapitalize: 'none', spellcheck: 'false',
  });
  const password = h('input', {
    id: 'password', name: 'password', type: 'password', required: true,
    autocomplete: signup ? 'new-password' : 'current-password',
  });
  const email = h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email' });
  const end = h('div', { class: 'part' });
  const drawEnd = panel(end, formEnd);
  const submit = t(signup ? 'account.signupSubmit' : 'account.loginSubmit');
  const form = h('form', { class: `panel account-form ${kind}-form prose`, novalidate: true },
    h('h1', { text: t(signup ? 'account.signupTitle' : 'account.loginTitle') }),
    field(t('account.username'), username, signup ? t('account.usernameHint') : undefined),
    field(t('account.password'), password, signup ? t('account.passwordHint') : undefined),
    signup && field(t('account.email'), email),
    h('p', { class: 'muted', text: t('account.keepsGames') }),
    end,
    !signup && h('p', {}, h('a', { class: 'to-forgot', href: href('forgot'), text: t('account.forgot') })),
    h('p', {}, t(signup ? 'account.haveAccount' : 'account.noAccount'), ' ',
      h('a', {
        class: signup ? 'to-login' : 'to-signup',
        href: href(signup ? 'login' : 'signup', { next: params.get('next') }),
        text: t(signup ? 'account.login' : 'account.signup'),
      })));
  main.append(form);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const here = location.href;
    const done = signup
      ? await ctrl.signUp(username.value.trim(), password.value, email.value.trim())
      : await ctrl.logIn(username.value.trim(), password.value);
    if (done) {
      // Not when the player went elsewhere while the request was out: their choice stands.
      if (location.href === here) location.hash = next;
      return;
    }
    // Refused: the username stays, the password is typed again, and the field at fault has
    // the focus (its text selected, so that typing replaces it).
    password.value = '';
    const fault = { bad_username: username, username_taken: username, bad_email: email }[ctrl.fault] || password;
    fault.focus();
    if (fault !== password) fault.select();
  });

  function redraw() {
    drawEnd({ error: ctrl.errors[kind] || '', busy: ctrl.busy !== null, submit });
  }
  redraw();
  username.focus();
}
