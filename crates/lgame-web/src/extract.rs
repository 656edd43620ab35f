//! What a handler reads from a request: a JSON body and query parameters, their rejections
//! answered as the API's JSON errors, and the bound on a body's size.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{request::Parts, StatusCode};
use axum::Json;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// A JSON body, its rejections answered as JSON errors.
pub struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => body_too_large(),
        status => ApiError::new(status, rejection.body_text()),
    }
}

/// The refusal of a body over [`MAX_BODY`].
pub fn body_too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the request body is too large (at most {} bytes)", MAX_BODY),
    )
}

/// Query parameters, their rejections answered as JSON errors.
pub struct Params<T>(pub T);

impl<S, T> FromRequestParts<S> for Params<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(q) => Ok(Params(q.0)),
            Err(rejection) => Err(query_rejection(rejection)),
        }
    }
}

fn query_rejection(rejection: QueryRejection) -> ApiError {
    ApiError::new(rejection.status(), rejection.body_text())
}
