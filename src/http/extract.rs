//! Extractors that parse requests at the edge and refuse them in the API's error shape
//! (`{"error": {"code", "message"}}`), where axum's own extractors would answer plain text.

use crate::error::ApiError;
use crate::input::json::StrictValue;
use crate::input::{printable, printable_json};
use crate::record::{MatchId, PlayerId, TicketId};
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// A route's one path parameter as sent, refused in the API's error shape.
async fn path_text<S: Send + Sync>(parts: &mut Parts, state: &S) -> Result<String, ApiError> {
    let Path(raw) = Path::<String>::from_request_parts(parts, state)
        .await
        .map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
    Ok(raw)
}

/// The one path parameter of a route, parsed into an id: malformed is a 400, not a 404 and
/// never a store error.
macro_rules! path_id {
    ($name:ty) => {
        impl<S: Send + Sync> FromRequestParts<S> for $name {
            type Rejection = ApiError;

            async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
                Ok(<$name>::parse(&path_text(parts, state).await?)?)
            }
        }
    };
}

path_id!(MatchId);
path_id!(TicketId);
path_id!(PlayerId);

/// A competition route's path: its id (a UUID: anything else is a 400 before any lookup)
/// and, on a fixture's route, the fixture's number.
pub struct CompetitionPath {
    pub id: String,
    pub fixture: Option<i32>,
}

impl<S: Send + Sync> FromRequestParts<S> for CompetitionPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(params) =
            Path::<std::collections::HashMap<String, String>>::from_request_parts(parts, state)
                .await
                .map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
        let raw = params.get("id").map(String::as_str).unwrap_or_default();
        printable("the path", raw)?;
        let id = uuid::Uuid::parse_str(raw)
            .map_err(|_| ApiError::BadRequest(format!("{raw:?} is not a competition id")))?
            .to_string();
        let fixture = params
            .get("fixture")
            .map(|raw| {
                raw.parse::<i32>()
                    .ok()
                    .filter(|number| *number > 0)
                    .ok_or_else(|| ApiError::BadRequest(format!("{raw:?} is not a fixture number")))
            })
            .transpose()?;
        Ok(CompetitionPath { id, fixture })
    }
}

/// A route's one free-text path parameter (a game id), free of control characters.
pub struct PathText(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PathText {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let raw = path_text(parts, state).await?;
        printable("the path", &raw)?;
        Ok(PathText(raw))
    }
}

/// The query string as `T`, with no control character in any (decoded) name or value.
pub struct QueryParams<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            let name = printable("a query parameter name", &name)?;
            printable(&format!("query parameter `{name}`"), &value)?;
        }
        Query::<T>::try_from_uri(&parts.uri)
            .map(|Query(value)| QueryParams(value))
            .map_err(|rejection| ApiError::BadRequest(rejection.body_text()))
    }
}

/// A JSON body: over the body limit is a 413 `payload_too_large`; not JSON, a control
/// character in any string or key, or the wrong shape is a 400 `bad_request`.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        // Repeated keys are refused (see `input::json`), as a 400 like any malformed body.
        let value = match axum::Json::<StrictValue>::from_request(request, state).await {
            Ok(axum::Json(StrictValue(value))) => value,
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(ApiError::PayloadTooLarge);
            }
            Err(rejection) => return Err(ApiError::BadRequest(rejection.body_text())),
        };
        printable_json("the body", &value)?;
        serde_json::from_value(value)
            .map(JsonBody)
            .map_err(|error| ApiError::BadRequest(error.to_string()))
    }
}
