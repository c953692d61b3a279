//! The HTTP handlers: the page, the defaults, upload, plan and download. Each converts a
//! request into library calls ([`crate::ingest::read_inputs_bytes`], [`super::render`]) and
//! the result into a response; errors are JSON `{"error": message}` with a 4xx or 5xx.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Json;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::App;
use super::awaited::{Awaited, NotAwaited};
use super::render::{self, PlanView};
use crate::ErrorKind;
use crate::inventory::{Inventory, InventorySummary};
use crate::report::Format;

use super::assets::{PAGE, PAGE_JS};

/// Longest file name kept from an upload, characters.
const MAX_NAME_CHARS: usize = 200;

/// An error response: status and message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub(super) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn internal(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message.to_string())
    }
}

impl From<NotAwaited> for ApiError {
    fn from(n: NotAwaited) -> ApiError {
        ApiError::new(n.status(), n.message())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

impl From<crate::Error> for ApiError {
    /// Input and usage errors are 400, an infeasible target 422, a stopped plan 409, the
    /// rest 500; the message
    /// is the library's (file, sheet, row, column; settings by their option names).
    fn from(e: crate::Error) -> ApiError {
        let status = match e.kind() {
            ErrorKind::Input | ErrorKind::Usage => StatusCode::BAD_REQUEST,
            ErrorKind::Infeasible => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            // A plan stopped because its answer is no longer awaited, as a plan never
            // started for that reason (`NotAwaited::status`).
            ErrorKind::Stopped => StatusCode::CONFLICT,
        };
        ApiError::new(status, e.to_string())
    }
}

/// `GET /`: the page.
pub async fn page() -> Html<&'static str> {
    Html(PAGE)
}

/// `GET /page.js`: the page's script.
pub async fn page_js() -> Response {
    let mut response = PAGE_JS.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    response
}

/// `GET /api/choices`: the form's lists from the built-in catalogs ([`render::choices`]).
///
/// # Errors
/// 500 if a compiled-in table is malformed (a build defect).
pub async fn choices() -> Result<Json<render::Choices>, ApiError> {
    Ok(Json(render::choices()?))
}

/// `GET /api/defaults`: [`crate::PlanOptions::default`] as JSON, so the page's form starts
/// from the library's defaults.
pub async fn defaults() -> Json<crate::PlanOptions> {
    Json(crate::PlanOptions::default())
}

/// What an upload returns.
#[derive(Debug, Serialize)]
pub struct Uploaded {
    /// The session to plan with.
    pub session: String,
    /// The files read, in order.
    pub files: Vec<String>,
    /// The inventory's counts and totals.
    pub summary: InventorySummary,
    /// Reading warnings, one line each, its kind first (`(value) a.csv [vInfo] row 4 ...`).
    pub warnings: Vec<String>,
}

/// `POST /api/upload`'s query: `?replaces=SESSION`, the session the page shows, evicted
/// first if the new upload needs its memory (it stays kept when the upload fails).
#[derive(Debug, Default, Deserialize)]
pub struct UploadQuery {
    /// The session this upload replaces on its page.
    #[serde(default)]
    pub replaces: Option<String>,
}

/// `POST /api/upload` (multipart, one or more files): reads them in memory into one
/// inventory and keeps it as a new session, within the memory budget.
///
/// # Errors
/// 503 when [`super::UPLOADS_AT_ONCE`] uploads are being read for longer than the body
/// timeout, or the budget is held by recently used sessions (past the rows the budget left
/// holds but within what the whole budget holds, too); 408 when the body takes longer than the body timeout or arrives slower
/// than [`MIN_BODY_BYTES_PER_SEC`]; 413 past the upload limit, past the rows the whole
/// budget holds, or for an inventory that alone needs more than the budget; 400 for a file
/// that cannot be read (the ingest message).
pub async fn upload(
    State(app): State<Arc<App>>,
    Query(query): Query<UploadQuery>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Result<Json<Uploaded>, ApiError> {
    let multipart = multipart.map_err(multipart_rejection)?;
    let uploads = Arc::clone(&app.uploads).acquire_owned();
    let _permit = match tokio::time::timeout(app.body_timeout, uploads).await {
        Ok(Ok(permit)) => permit,
        _ => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server has been reading {} other uploads for {} s; try again when \
                     one has finished",
                    super::UPLOADS_AT_ONCE,
                    app.body_timeout.as_secs()
                ),
            ));
        }
    };
    let files = tokio::time::timeout(app.body_timeout, received(&app, multipart))
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the upload did not arrive within the server's {} s \
                     (`dsplan serve --body-timeout-secs`)",
                    app.body_timeout.as_secs()
                ),
            )
        })??;
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    let budget_bytes = app.sessions.limits().budget_bytes;
    let parsing = app.parsing.lock().await;
    // Read within the budget left: the rows past what it holds end the reading.
    let room_bytes = app.sessions.room(query.replaces.as_deref());
    let reading = app.sessions.hold(reading_bytes(&files).min(room_bytes));
    let (inventory, charges) = tokio::task::spawn_blocking(move || {
        let inventory = read(&files, (room_bytes, budget_bytes))?;
        let charge = super::budget::charge_bytes(&inventory);
        let plan = super::budget::plan_bytes(&inventory);
        Ok::<_, ApiError>((inventory, (charge, plan)))
    })
    .await
    .map_err(ApiError::internal)??;
    drop(reading);
    drop(parsing);
    let summary = inventory.summary();
    let warnings = (inventory.warnings.iter())
        .map(crate::report::model::warnings::tagged_line)
        .collect();
    let session = app
        .sessions
        .insert(inventory, charges, query.replaces.as_deref())
        .map_err(|e| {
            let status = match e {
                super::session::Refused::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
                super::session::Refused::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
                super::session::Refused::Random { .. } => StatusCode::INTERNAL_SERVER_ERROR,
            };
            ApiError::new(status, e.to_string())
        })?;
    Ok(Json(Uploaded {
        session,
        files: names,
        summary,
        warnings,
    }))
}

/// The least rate an upload's body must keep once it has had [`BODY_GRACE`]: 16 KiB/s
/// (a 512 MiB upload at that rate takes 9 hours; a connection that sends a byte a second
/// holds a reading slot for 2 s, not the whole body timeout).
pub const MIN_BODY_BYTES_PER_SEC: u64 = 16 << 10;

/// Time an upload's body has before [`MIN_BODY_BYTES_PER_SEC`] applies: 2 s.
pub const BODY_GRACE: Duration = Duration::from_secs(2);

/// When the bytes after `bytes_so_far` must have arrived, for a body whose reading
/// started at `start`: [`BODY_GRACE`] plus the time [`MIN_BODY_BYTES_PER_SEC`] allows
/// for them.
fn body_deadline(start: tokio::time::Instant, bytes_so_far: u64) -> tokio::time::Instant {
    let allowed =
        Duration::from_secs_f64((bytes_so_far + 1) as f64 / MIN_BODY_BYTES_PER_SEC as f64);
    start + BODY_GRACE + allowed
}

/// The 408 of a body slower than [`MIN_BODY_BYTES_PER_SEC`].
fn too_slow() -> ApiError {
    ApiError::new(
        StatusCode::REQUEST_TIMEOUT,
        format!(
            "the upload arrived slower than {} KiB/s; the server cut it to read others",
            MIN_BODY_BYTES_PER_SEC >> 10
        ),
    )
}

/// The files of an upload, each name cut as [`upload_name`] says; the
/// body must keep [`MIN_BODY_BYTES_PER_SEC`] after [`BODY_GRACE`].
///
/// # Errors
/// 413 past the upload limit; 400 for a broken multipart body or no file; 408 for a body
/// slower than the floor.
async fn received(app: &App, mut multipart: Multipart) -> Result<Vec<(String, Vec<u8>)>, ApiError> {
    let start = tokio::time::Instant::now();
    let mut got = 0u64;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    while let Some(mut field) =
        tokio::time::timeout_at(body_deadline(start, got), multipart.next_field())
            .await
            .map_err(|_| too_slow())?
            .map_err(|e| multipart_error(app, e))?
    {
        let name = upload_name(field.file_name().unwrap_or("upload"));
        let mut bytes = Vec::new();
        while let Some(chunk) = tokio::time::timeout_at(body_deadline(start, got), field.chunk())
            .await
            .map_err(|_| too_slow())?
            .map_err(|e| multipart_error(app, e))?
        {
            got = got.saturating_add(chunk.len() as u64);
            bytes.extend_from_slice(&chunk);
        }
        files.push((name, bytes));
    }
    if files.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "no file in the upload",
        ));
    }
    distinct_names(&mut files);
    Ok(files)
}

/// Gives each file of an upload a name no file before it has (`a.csv`, `a (2).csv`), so
/// warnings and the upload's summary tell two files of one name apart.
fn distinct_names(files: &mut [(String, Vec<u8>)]) {
    let mut taken: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for (name, _) in files.iter_mut() {
        if taken.insert(name.to_lowercase()) {
            continue;
        }
        let (stem, ext) = match name.rfind('.') {
            Some(i) if i > 0 => (name[..i].to_string(), name[i..].to_string()),
            _ => (name.clone(), String::new()),
        };
        let renamed = (2..)
            .map(|n| format!("{stem} ({n}){ext}"))
            .find(|n| !taken.contains(&n.to_lowercase()))
            .unwrap_or_default();
        taken.insert(renamed.to_lowercase());
        *name = renamed;
    }
}

/// The most an upload's files may take while read: for a CSV, one row per 2 bytes (a name
/// and a line break) at [`super::budget::PARSE_ROW_BYTES`] each; a workbook or a zip
/// inflates, so for them all the room.
fn reading_bytes(files: &[(String, Vec<u8>)]) -> u64 {
    files
        .iter()
        .map(|(name, bytes)| {
            if name.to_ascii_lowercase().ends_with(".csv") {
                (bytes.len() as u64 / 2 + 1).saturating_mul(super::budget::PARSE_ROW_BYTES)
            } else {
                u64::MAX
            }
        })
        .fold(0, u64::saturating_add)
}

/// Reads the uploaded files within the rows the budget left (`room_bytes` of
/// `budget_bytes`) allows ([`super::budget::max_rows`]): past them, 413 naming what the
/// whole budget holds when the rows are past that too (read on an idle server, or
/// counted, [`super::rows::more_rows_than`]), else 503 (others' uploads hold the rest:
/// waiting helps; a workbook's rows are not counted, so it gets 503 then). A Live Optics
/// workbook is refused (its `VM Performance` sheet is read by path when planning, which the
/// page cannot do).
fn read(
    files: &[(String, Vec<u8>)],
    (room_bytes, budget_bytes): (u64, u64),
) -> Result<Inventory, ApiError> {
    let limits = crate::ingest::ReadLimits {
        max_rows: super::budget::max_rows(room_bytes),
        ..crate::ingest::ReadLimits::default()
    };
    let whole_budget_rows = super::budget::max_rows(budget_bytes);
    let inventory =
        crate::ingest::read_inputs_bytes_within(files, limits).map_err(|e| match e {
            crate::ingest::IngestError::TooManyRows {
                file,
                sheet,
                max_rows,
            } if max_rows < whole_budget_rows
                && super::rows::more_rows_than(files, &file, &sheet, whole_budget_rows)
                    != Some(true) =>
            {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "{file} [{sheet}]: more than {} rows, what the {} MiB left of the server's \
                     memory budget of {} MiB (`dsplan serve --memory-budget-mib`) holds while \
                     other uploads are kept; try again later",
                        crate::numbers::group_thousands(max_rows as f64, 0),
                        room_bytes >> 20,
                        budget_bytes >> 20,
                    ),
                )
            }
            // Past what the whole budget holds (counted when others' uploads held part of
            // it): as on an idle server, waiting would not help.
            crate::ingest::IngestError::TooManyRows { file, sheet, .. } => ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "{file} [{sheet}]: more than {} rows; the server's memory budget of {} MiB \
                 (`dsplan serve --memory-budget-mib`) keeps and plans at most {} rows per \
                 tab; plan it with `dsplan plan`, or serve with a larger budget",
                    crate::numbers::group_thousands(whole_budget_rows as f64, 0),
                    budget_bytes >> 20,
                    crate::numbers::group_thousands(whole_budget_rows as f64, 0),
                ),
            ),
            // The command's message suggests a folder, which a page cannot upload.
            crate::ingest::IngestError::UnsupportedExtension { file, extension } => ApiError::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "{file}: unsupported file type '{extension}': the page reads an RVTools .xlsx, \
                 a vInfo .csv, or a .zip of the RVTools_tab*.csv folder"
                ),
            ),
            e => ApiError::from(crate::Error::from(e)),
        })?;
    if let Some(lo) = inventory
        .sources
        .iter()
        .find(|s| s.format == crate::ingest::LIVE_OPTICS_FORMAT)
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "{}: a Live Optics workbook; the page reads RVTools exports (plan it with \
                 `dsplan plan`)",
                lo.file
            ),
        ));
    }
    Ok(inventory)
}

fn multipart_error(app: &App, e: axum::extract::multipart::MultipartError) -> ApiError {
    let status = e.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large_error(app.max_upload_bytes, None);
    }
    ApiError::new(status, format!("upload: {}", e.body_text()))
}

/// A request the `Multipart` extractor refused (no multipart content type, no boundary), as
/// JSON like every other error.
fn multipart_rejection(e: axum::extract::multipart::MultipartRejection) -> ApiError {
    ApiError::new(
        e.status(),
        format!(
            "upload: a multipart form with the files is expected ({})",
            e.body_text()
        ),
    )
}

/// A JSON body the `Json` extractor refused (too large, malformed, wrong content type), as
/// JSON like every other error.
fn json_rejection(e: axum::extract::rejection::JsonRejection) -> ApiError {
    let status = e.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(
            status,
            format!(
                "the request is larger than the {} MiB a plan's options may take",
                super::MAX_JSON_BYTES >> 20
            ),
        );
    }
    ApiError::new(status, format!("request: {}", e.body_text()))
}

/// The 413 message: the limit in MiB, and the upload's size when it was declared.
fn too_large_error(limit_bytes: u64, declared_bytes: Option<u64>) -> ApiError {
    let mib = |b: u64| b as f64 / f64::from(1u32 << 20);
    let size = declared_bytes.map_or(String::new(), |b| format!(" ({:.1} MiB)", mib(b)));
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the upload{size} is larger than the server's limit of {} MiB \
             (`dsplan serve --max-upload-mib`)",
            limit_bytes >> 20
        ),
    )
}

/// A plan or download request: the session and the options.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    /// The session an upload returned.
    pub session: String,
    /// [`crate::PlanOptions`] fields; missing ones take the defaults.
    #[serde(default = "empty_object")]
    pub options: Value,
    /// Host prices typed into the page: rows of a host price file (`host_price_file`).
    #[serde(default)]
    pub host_prices: Vec<render::TypedHostPrice>,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// A plan made for a request: the plan, its options, the names of the files planned, and
/// the session's plan lock and the plan's reservation of the budget, held until the plan
/// is rendered.
struct Made<'a> {
    planned: crate::Planned,
    options: crate::PlanOptions,
    inputs: Arc<Inventory>,
    _planning: (
        tokio::sync::OwnedMutexGuard<()>,
        super::session::Reservation<'a>,
    ),
}

/// Longest wait of a plan for its bytes of the budget (other plans running): 30 s.
pub const PLAN_WAIT: Duration = Duration::from_secs(30);

/// Plans a request's session in a blocking task, once its bytes of the budget are reserved
/// (waiting up to [`PLAN_WAIT`] for other plans); the session's plan lock and the
/// reservation come back with the plan, to hold while it is rendered. A plan the page
/// shows (`latest`) is superseded by a newer plan request of its session; the plan is
/// not started once its answer is no longer `awaited` ([`Awaited::check`]).
async fn planned<'a>(
    app: &'a App,
    request: &PlanRequest,
    awaited: &mut Awaited,
    latest: bool,
) -> Result<Made<'a>, ApiError> {
    let options = render::parse_options(&request.options)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.0))?;
    let kept = app.sessions.get(&request.session).ok_or_else(|| {
        ApiError::new(
            StatusCode::GONE,
            "the server keeps no upload of this session (unused too long, others needed \
             its memory, the server restarted, or the session id is wrong); upload the files \
             again",
        )
    })?;
    if latest {
        awaited.latest_of(&kept.plan_requests);
    }
    // One plan of a session at a time: its charge in the budget covers one.
    let planning = kept.plan_lock.lock_owned().await;
    awaited.check()?;
    let start = tokio::time::Instant::now();
    let reserved = loop {
        if let Some(r) = app.sessions.reserve(kept.plan_bytes, &request.session) {
            break r;
        }
        if start.elapsed() >= PLAN_WAIT {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server's memory budget of {} MiB (`dsplan serve --memory-budget-mib`) \
                     is held by other plans; try again later",
                    app.sessions.limits().budget_bytes >> 20
                ),
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        awaited.check()?;
    };
    let inventory = Arc::clone(&kept.inventory);
    let for_plan = options.clone();
    let prices = request.host_prices.clone();
    let watch = awaited.clone();
    let plans_run = Arc::clone(&app.plans_run);
    let log = app.log_plans;
    let planned = tokio::task::spawn_blocking(move || {
        watch.check()?;
        let number = plans_run.fetch_add(1, Ordering::Relaxed) + 1;
        let started = std::time::Instant::now();
        let stop = watch.clone();
        let planned = render::plan(&inventory, for_plan, &prices, move || stop.check().is_err());
        if log {
            log_plan(number, started.elapsed(), &planned, &watch);
        }
        // A plan stopped for its answer is answered as one never started: with why.
        if let Err(e) = &planned
            && e.kind() == ErrorKind::Stopped
        {
            watch.check()?;
        }
        Ok::<_, ApiError>(planned?)
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(Made {
        planned,
        options,
        inputs: kept.inventory,
        _planning: (planning, reserved),
    })
}

/// Writes plan `number`'s end on stderr: done, stopped (and why its answer was no longer
/// awaited) or failed (whose fault: the upload, a setting, a target, an internal error),
/// and its time in milliseconds. A plan done whose answer a newer request then superseded
/// is logged done (it was; its answer is the 409).
fn log_plan(
    number: u64,
    took: Duration,
    planned: &Result<crate::Planned, crate::Error>,
    watch: &Awaited,
) {
    let outcome = match planned {
        Ok(_) => "done".to_string(),
        Err(e) if e.kind() == ErrorKind::Stopped => format!(
            "stopped ({})",
            watch.check().err().map_or("asked", NotAwaited::message)
        ),
        Err(e) => format!(
            "failed ({})",
            match e.kind() {
                ErrorKind::Input => "the upload",
                ErrorKind::Usage => "a setting",
                ErrorKind::Infeasible => "a target no layout meets",
                _ => "an internal error",
            }
        ),
    };
    eprintln!(
        "dsplan serve: plan {number} {outcome} in {} ms",
        took.as_millis()
    );
}

/// The page's view of a request's plan as JSON, gzipped when `gzip` and it is large; the
/// session's plan lock and the plan's budget are held until it is made.
async fn view_bytes(
    app: &App,
    request: &PlanRequest,
    mut awaited: Awaited,
    gzip: bool,
) -> Result<(Vec<u8>, bool), ApiError> {
    let Made {
        planned,
        options,
        _planning: _held,
        ..
    } = planned(app, request, &mut awaited, true).await?;
    tokio::task::spawn_blocking(move || {
        awaited.check()?;
        let view: PlanView = render::view(&planned, &options)?;
        awaited.check()?;
        let json = serde_json::to_vec(&view).map_err(ApiError::internal)?;
        if gzip && json.len() >= GZIP_FROM_BYTES {
            Ok::<_, ApiError>((gzipped(&json)?, true))
        } else {
            Ok((json, false))
        }
    })
    .await
    .map_err(ApiError::internal)?
}

/// `POST /api/plan` `{session, options}`: the plan as the page shows it. A newer plan
/// request of the same session supersedes it: its plan is not started (or, once made, not
/// rendered), and it is answered 409.
///
/// # Errors
/// 400 for bad options, 410 for an evicted session, 422 for an infeasible target, 409 when
/// superseded.
pub async fn plan(
    State(app): State<Arc<App>>,
    headers: axum::http::HeaderMap,
    request: Result<Json<PlanRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = request.map_err(json_rejection)?;
    let gzip = accepts_gzip(&headers);
    let (awaited, _gone) = Awaited::new();
    // A task of its own: when the client goes away the handler is dropped, but the plan
    // under way keeps the session's plan lock and its budget until it stops.
    let (bytes, gzipped) =
        tokio::spawn(async move { view_bytes(&app, &request, awaited, gzip).await })
            .await
            .map_err(ApiError::internal)??;
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if gzipped {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    Ok(response)
}

/// A plan's JSON at least this large is gzipped for a browser that accepts it: 64 KiB (a
/// small estate's view is tens of KiB; a 50,000-VM estate's is megabytes, most of it SVG and
/// table markup that gzip shrinks about twenty-fold).
pub const GZIP_FROM_BYTES: usize = 64 << 10;

/// Whether `Accept-Encoding` lists gzip (without `q=0`).
fn accepts_gzip(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            parts.next().is_some_and(|c| c.eq_ignore_ascii_case("gzip"))
                && parts.all(|p| p.replace(' ', "") != "q=0")
        })
}

/// `bytes` gzipped at the fast level (a 4 MiB view in tens of milliseconds).
fn gzipped(bytes: &[u8]) -> Result<Vec<u8>, ApiError> {
    use std::io::Write as _;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).map_err(ApiError::internal)?;
    encoder.finish().map_err(ApiError::internal)
}

/// `POST /api/download/{format}` (`xlsx`, `html`, `md`, `csv`, `json`) `{session, options}`: the
/// plan as a file, with `Content-Disposition: attachment` naming it after the upload and
/// the day ([`super::names::download_name`]: `dsplan-estate-2026-12-06.xlsx`; an ASCII
/// `filename=` and a UTF-8 `filename*=` when the name has other letters,
/// [`super::names::content_disposition`]).
///
/// # Errors
/// 404 for another format; as [`plan`].
pub async fn download(
    State(app): State<Arc<App>>,
    Path(format): Path<String>,
    request: Result<Json<PlanRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = request.map_err(json_rejection)?;
    let (text_format, mime) = match format.as_str() {
        "html" => (Some(Format::Html), "text/html; charset=utf-8"),
        "xlsx" => (
            None,
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
        "md" => (Some(Format::Markdown), "text/markdown; charset=utf-8"),
        "csv" => (Some(Format::Csv), "text/csv; charset=utf-8"),
        "json" => (Some(Format::Json), "application/json"),
        _ => {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no download format '{format}': xlsx, html, md, csv or json"),
            ));
        }
    };
    let (awaited, _gone) = Awaited::new();
    // A task of its own, as a plan's (`plan`).
    let (bytes, name) =
        tokio::spawn(
            async move { download_bytes(&app, &request, awaited, text_format, &format).await },
        )
        .await
        .map_err(ApiError::internal)??;
    let disposition = super::names::content_disposition(&name.0, &name.1);
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

/// A request's plan as a file in `text_format` (`None`: the workbook), and its name and
/// that name in ASCII (`ext` its extension); the session's plan lock and the plan's budget
/// are held until it is made.
async fn download_bytes(
    app: &App,
    request: &PlanRequest,
    mut awaited: Awaited,
    text_format: Option<Format>,
    ext: &str,
) -> Result<(Vec<u8>, (String, String)), ApiError> {
    let Made {
        planned,
        options,
        inputs,
        _planning: _held,
    } = planned(app, request, &mut awaited, false).await?;
    let today = super::names::today_utc();
    let name = (
        super::names::download_name(&inputs.inputs, &today, ext),
        super::names::ascii_download_name(&inputs.inputs, &today, ext),
    );
    let bytes = tokio::task::spawn_blocking(move || {
        awaited.check()?;
        Ok::<_, ApiError>(match text_format {
            // In the page's words, as the page shows the report: its controls, not flags.
            Some(Format::Html) => render::html_document(&planned, &options)
                .map(|h| super::words::html_in_page_words(&h).into_bytes()),
            Some(Format::Markdown) => render::render(&planned, Format::Markdown)
                .map(|t| super::words::text_in_page_words(&t).into_bytes()),
            Some(f) => render::render(&planned, f).map(String::into_bytes),
            None => render::workbook(&planned).map(|w| w.bytes),
        }?)
    })
    .await
    .map_err(ApiError::internal)??;
    Ok((bytes, name))
}

/// The 413 for a request whose `Content-Length` (`declared_bytes`) passes the limit, sent
/// before the body is read.
pub fn too_large(limit_bytes: u64, declared_bytes: u64) -> Response {
    too_large_error(limit_bytes, Some(declared_bytes)).into_response()
}

/// An upload's name as kept: its last path part, at most [`MAX_NAME_CHARS`] characters,
/// the extension kept when the name is clipped (`x` x 300 + `.csv` keeps `.csv`: the
/// extension says how the file is read). An extension longer than 16 characters is not
/// one and is clipped with the rest.
fn upload_name(given: &str) -> String {
    let base = given.rsplit(['/', '\\']).next().unwrap_or(given);
    if base.chars().count() <= MAX_NAME_CHARS {
        return base.to_string();
    }
    let ext = base
        .rfind('.')
        .map(|i| &base[i..])
        .filter(|e| e.chars().count() <= 16)
        .unwrap_or("");
    let keep = MAX_NAME_CHARS - ext.chars().count();
    let stem: String = base[..base.len() - ext.len()].chars().take(keep).collect();
    stem + ext
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_one_name_are_told_apart() {
        // a.csv, A.CSV, a.csv, b: the second and third become (2) and (3); case counts as
        // the same name (Windows and macOS folders do).
        let mut files: Vec<(String, Vec<u8>)> = ["a.csv", "A.CSV", "a.csv", "b"]
            .iter()
            .map(|n| (n.to_string(), Vec::new()))
            .collect();
        distinct_names(&mut files);
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a.csv", "A (2).CSV", "a (3).csv", "b"]);
    }

    #[test]
    fn a_long_upload_name_keeps_its_extension() {
        // 300 x 'x' + ".csv": 196 x 'x' + ".csv" = 200 characters.
        let long = format!("{}.csv", "x".repeat(300));
        let kept = upload_name(&long);
        assert_eq!(kept, format!("{}.csv", "x".repeat(196)));
        assert_eq!(kept.chars().count(), MAX_NAME_CHARS);
        // A short name and a path are kept as the last part.
        assert_eq!(upload_name("C:\\exports\\vc1.xlsx"), "vc1.xlsx");
        assert_eq!(upload_name("a/b/ü.csv"), "ü.csv");
        // No extension: clipped to 200.
        assert_eq!(
            upload_name(&"y".repeat(250)).chars().count(),
            MAX_NAME_CHARS
        );
    }

    #[test]
    fn gzip_is_used_only_when_accepted() {
        let with = |value: &str| {
            let mut h = axum::http::HeaderMap::new();
            h.insert(
                header::ACCEPT_ENCODING,
                HeaderValue::from_str(value).unwrap(),
            );
            accepts_gzip(&h)
        };
        assert!(with("gzip, deflate, br, zstd"));
        assert!(with("br;q=1.0, GZIP;q=0.5"));
        assert!(!with("gzip;q=0"));
        assert!(!with("br, zstd"));
        assert!(!accepts_gzip(&axum::http::HeaderMap::new()));
        // Round trip: what is sent decompresses to the JSON.
        let json = br#"{"html":"<table></table>"}"#.repeat(100);
        let packed = gzipped(&json).unwrap();
        let mut back = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&packed[..]), &mut back)
            .unwrap();
        assert_eq!(back, json);
        assert!(packed.len() < json.len() / 10, "{}", packed.len());
    }
}
