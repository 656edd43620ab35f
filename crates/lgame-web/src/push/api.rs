//! Web Push's HTTP types and paths (docs/api.md, "Push notifications"): the server's key,
//! a browser's subscription as its `PushSubscription.toJSON()` gives it, and the paths
//! described for the OpenAPI document (`openapi.rs`). The handlers are in `routes.rs`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::openapi::{ActionRefusals, BodyRefusals, StorageRefusals};
use crate::response::ErrorBody;

/// `GET /api/push/key`: the server's VAPID public key.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({ "key": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U" }))]
pub struct PushKey {
    /// The P-256 public key, uncompressed (65 bytes), base64url without padding: the
    /// page's `applicationServerKey`.
    pub key: String,
}

/// A browser's push subscription, as `PushSubscription.toJSON()` gives it.
#[derive(Deserialize, ToSchema)]
#[schema(example = json!({
    "endpoint": "https://push.example.net/send/abc123",
    "expirationTime": null,
    "keys": {
        "p256dh": "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY",
        "auth": "_ordMnz7uTCmrpBTeUV4Bw"
    }
}))]
pub struct Subscription {
    /// The push service's URL for this browser: `https` on a public address.
    pub endpoint: String,
    /// When the browser ends it (milliseconds since 1970), if it says: accepted as sent,
    /// not kept (a subscription ends when its push service answers 404 or 410).
    #[serde(rename = "expirationTime", default)]
    #[allow(dead_code)]
    pub expiration_time: Option<f64>,
    pub keys: SubscriptionKeys,
}

/// A subscription's keys, base64url.
#[derive(Deserialize, ToSchema)]
pub struct SubscriptionKeys {
    /// The browser's P-256 public key (65 bytes, uncompressed).
    pub p256dh: String,
    /// Its authentication secret (16 bytes).
    pub auth: String,
}

/// `DELETE /api/push/subscriptions`: the subscription to end, by its endpoint.
#[derive(Deserialize, ToSchema)]
#[schema(example = json!({ "endpoint": "https://push.example.net/send/abc123" }))]
pub struct Unsubscription {
    pub endpoint: String,
}

/// `GET /api/push/key`.
#[utoipa::path(get, path = "/api/push/key", tag = "accounts",
    summary = "The server's VAPID public key, for a browser's subscription",
    responses(
        (status = 200, description = "The key", body = PushKey),
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn push_key() {}

/// `POST /api/push/subscriptions`.
#[utoipa::path(post, path = "/api/push/subscriptions", tag = "accounts",
    summary = "This browser's push subscription, for the account signed in",
    request_body = Subscription,
    responses(
        (status = 204, description = "Kept: the account's notices go to it"),
        (status = 400, description = "Unreadable JSON, or an endpoint that is not `https` on a public address (also after its name is resolved), or keys that are not a P-256 key and a 16-byte secret (`bad_subscription`)", body = ErrorBody),
        (status = 401, description = "Not logged in (`no_session`): notices go to accounts", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        ActionRefusals,
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn subscribe() {}

/// `DELETE /api/push/subscriptions`.
#[utoipa::path(delete, path = "/api/push/subscriptions", tag = "accounts",
    summary = "End this browser's push subscription",
    request_body = Unsubscription,
    responses(
        (status = 204, description = "Ended"),
        (status = 400, description = "Unreadable JSON (`bad_request`)", body = ErrorBody),
        (status = 401, description = "Not logged in (`no_session`)", body = ErrorBody),
        (status = 403, description = "A request with cookies from another site (`foreign_origin`)", body = ErrorBody),
        (status = 404, description = "The account has no subscription at this endpoint (`no_subscription`)", body = ErrorBody),
        (status = 422, description = "JSON of the wrong shape", body = ErrorBody),
        ActionRefusals,
        StorageRefusals,
        BodyRefusals,
    ))]
#[allow(dead_code)] // a description for the document, never called
pub fn unsubscribe() {}
