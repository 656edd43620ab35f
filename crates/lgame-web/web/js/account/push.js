// @ts-check
// Notifications by Web Push: asked only when the player chooses them (the account's
// settings), never on a page's load. The browser asks its permission, subscribes with the
// server's key, and the server keeps the subscription for the account; the service worker
// (web/sw.js) shows each notice and opens its game on a click.

import * as api from '../api.js';

/**
 * A key in base64url as the bytes `pushManager.subscribe` takes.
 * @param {string} text
 */
function bytesOf(text) {
  const base64 = (text + '='.repeat((4 - (text.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

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
  const subscription = await registration.pushManager.getSubscription()
    || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(key) });
  await api.push.subscribe(subscription.toJSON());
  return permission;
}

/** Ends this browser's subscription, here and on the server. */
export async function disableNotifications() {
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return;
  await api.push.unsubscribe(subscription.endpoint).catch(() => {});
  await subscription.unsubscribe();
}
