// @ts-check
// Notifications by Web Push: asked only when the player chooses them (the account's
// settings, or a correspondence game's "notify me"), never on a page's load. The browser asks
// its permission, subscribes with the server's key, and the server keeps the subscription for
// the account; the service worker (web/sw.js) shows each notice and opens its game on a click.

import * as api from '../api.js';

/**
 * A key in base64url as the bytes `pushManager.subscribe` takes.
 * @param {string} text
 */
function bytesOf(text) {
  const base64 = (text + '='.repeat((4 - (text.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * How long the browser's push service has to answer a subscription: where the browser
 * reaches none (headless Chromium's, say) `pushManager.subscribe` never settles.
 */
const SUBSCRIBE_MS = 10_000;

/** The browser could not subscribe: its push service refused or did not answer. */
export class NoPushService extends Error {}

/** Whether this browser can be told by push at all. */
export function pushSupported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/**
 * Asks the permission, subscribes and tells the server: `granted`, or what the browser
 * answered (`denied`, `default`).
 * @returns {Promise<NotificationPermission>}
 */
export async function enableNotifications() {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission;
  const registration = await navigator.serviceWorker.ready;
  const { key } = await api.push.key();
  const subscription = await registration.pushManager.getSubscription() || await subscribed(registration, key);
  await api.push.subscribe(subscription.toJSON());
  return permission;
}

/**
 * A new subscription with the server's key, or [`NoPushService`] when the browser's push
 * service refuses it or does not answer in time.
 * @param {ServiceWorkerRegistration} registration
 * @param {string} key
 * @returns {Promise<PushSubscription>}
 */
function subscribed(registration, key) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new NoPushService('no answer')), SUBSCRIBE_MS);
    registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(key) }).then(
      resolve, (e) => reject(new NoPushService(String(e))),
    ).finally(() => clearTimeout(timer));
  });
}

/** Whether this browser holds a subscription (its service worker's). */
export async function notificationsSubscribed() {
  const registration = await navigator.serviceWorker.ready;
  return Boolean(await registration.pushManager.getSubscription());
}

/** Ends this browser's subscription, here and on the server. */
export async function disableNotifications() {
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return;
  await api.push.unsubscribe(subscription.endpoint).catch(() => {});
  await subscription.unsubscribe();
}
