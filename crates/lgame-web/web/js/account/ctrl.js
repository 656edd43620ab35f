// @ts-check
// Accounts, the state and the actions: signing up, logging in and out, the account's
// settings (the password, the email address and what is mailed to it, the other sessions,
// closing it), and what a
// mailed link does (a new password, an address confirmed). Each action keeps its own
// message (what it did) or error (the server's words: why a username or a password is
// refused, a wrong password, too many attempts). The views (forms.js, view.js) draw it.

import * as api from '../api.js';
import * as session from '../session.js';

/** @typedef {'login' | 'signup' | 'password' | 'email' | 'mail' | 'sessions' | 'close' | 'forgot' | 'reset' | 'confirm'} Action */

/** Refusals the page words itself: the server's words say nothing more to a person. */
const PAGE_WORDED = ['bad_code', 'no_mail'];

/**
 * A refusal in words: the server's own (it says why: the username's rules, a password too
 * short or too common, a wrong password), with how long to wait after too many attempts.
 * @param {unknown} e
 */
export function refusalText(e) {
  if (!(e instanceof api.ApiError) || e.status === 0) return api.messageOf(e);
  if (PAGE_WORDED.includes(e.body?.kind || '')) return api.messageOf(e);
  return e.message || api.messageOf(e);
}

/**
 * The address to go to after a log-in: a view of this page (`#/…`) the person came from,
 * else their games.
 * @param {string | null} next
 */
export function afterLogin(next) {
  return next && /^#\/[\w-]/.test(next) && !/^#\/(login|signup)\b/.test(next) ? next : '#/games';
}

export class AccountCtrl {
  /** @param {() => void} redraw */
  constructor(redraw) {
    this.redraw = redraw;
    /** What each action did. @type {Partial<Record<Action, string>>} */
    this.messages = {};
    /** Why each action was refused. @type {Partial<Record<Action, string>>} */
    this.errors = {};
    /** The action on its way. @type {Action | null} */
    this.busy = null;
    /** Whether the account was closed here. */
    this.closed = false;
    /** The last refusal's kind (which field it blames: `bad_username`, `bad_password`, …). */
    this.fault = '';
    /** The account's sessions, once asked. @type {import('../api-types.js').SessionInfo[]} */
    this.sessions = [];
    /** What the account is mailed, once asked. @type {import('../api-types.js').MailChoices | null} */
    this.mail = null;
  }

  /**
   * Runs an action: its message when it succeeds, the server's words when it is refused.
   * Returns whether it succeeded.
   * @param {Action} name
   * @param {() => Promise<string>} what resolves to the message to show
   */
  async run(name, what) {
    if (this.busy) return false;
    this.busy = name;
    this.errors[name] = '';
    this.messages[name] = '';
    this.fault = '';
    this.redraw();
    try {
      this.messages[name] = await what();
      return true;
    } catch (e) {
      this.errors[name] = refusalText(e);
      this.fault = e instanceof api.ApiError && e.body ? e.body.kind || '' : '';
      return false;
    } finally {
      this.busy = null;
      this.redraw();
    }
  }

  /**
   * @param {string} username
   * @param {string} password
   */
  logIn(username, password) {
    return this.run('login', async () => {
      session.set(await api.account.logIn(username, password));
      return '';
    });
  }

  /**
   * @param {string} username
   * @param {string} password
   * @param {string} email
   */
  signUp(username, password, email) {
    return this.run('signup', async () => {
      session.set(await api.account.signUp({ username, password, email: email || undefined }));
      return '';
    });
  }

  /**
   * @param {string} password
   * @param {string} newPassword
   * @param {string} done the message once changed
   */
  changePassword(password, newPassword, done) {
    return this.run('password', async () => {
      session.set(await api.account.changePassword(password, newPassword));
      return done;
    });
  }

  /**
   * Changes the account's address (unconfirmed until its mailed link is followed).
   * @param {string} email none when empty
   * @param {string} done the message once changed
   */
  changeEmail(email, done) {
    return this.run('email', async () => {
      session.set(await api.account.changeEmail(email || null));
      return done;
    });
  }

  /**
   * Asks for a link that sets a new password, by username or (with an `@`) by address. The
   * server answers the same whoever it names, and so does the page.
   * @param {string} who
   * @param {string} done the message once asked
   */
  askReset(who, done) {
    return this.run('forgot', async () => {
      await api.account.askReset(who.includes('@') ? { email: who } : { username: who });
      return done;
    });
  }

  /**
   * Sets a new password with a mailed link's code: logged in afterwards.
   * @param {string} code
   * @param {string} password
   */
  reset(code, password) {
    return this.run('reset', async () => {
      session.set(await api.account.reset(code, password));
      return '';
    });
  }

  /**
   * Confirms an address with its mailed link's code.
   * @param {string} code
   * @param {string} done the message once confirmed
   */
  confirmEmail(code, done) {
    return this.run('confirm', async () => {
      await api.account.confirmEmail(code);
      return done;
    });
  }

  /** What the account is mailed, asked. */
  async loadMail() {
    try {
      this.mail = await api.account.mail();
    } catch (e) {
      this.errors.mail = refusalText(e);
    }
    this.redraw();
  }

  /**
   * Chooses whether the account is mailed when it is its move in correspondence.
   * @param {boolean} yourMove
   * @param {string} done the message once saved
   */
  chooseMail(yourMove, done) {
    return this.run('mail', async () => {
      this.mail = await api.account.chooseMail({ your_move: yourMove });
      return done;
    });
  }

  /** @param {(ended: number) => string} done the message once ended */
  endOtherSessions(done) {
    return this.run('sessions', async () => {
      const ended = (await api.account.endOtherSessions()).ended;
      await this.loadSessions();
      return done(ended);
    });
  }

  /** The account's sessions, asked again. */
  async loadSessions() {
    try {
      this.sessions = (await api.account.sessions()).sessions;
    } catch (e) {
      this.errors.sessions = refusalText(e);
    }
    this.redraw();
  }

  /**
   * Ends one session (the list is asked again); the page's own is a log-out.
   * @param {import('../api-types.js').SessionInfo} s
   */
  endSession(s) {
    return this.run('sessions', async () => {
      await api.account.endSession(s.id);
      if (s.current) session.set(null);
      await this.loadSessions();
      return '';
    });
  }

  /**
   * @param {string} password
   * @param {string} done the message once closed
   */
  close(password, done) {
    return this.run('close', async () => {
      await api.account.close(password);
      this.closed = true;
      session.set(null);
      return done;
    });
  }
}
