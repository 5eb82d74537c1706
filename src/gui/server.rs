//! The HTTP server: the page's files, the WebSocket each page talks over, and the
//! checks every request passes first (Host and Origin, so that neither another web
//! site nor a DNS-rebound name can reach the engines).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use super::assets;
use super::cli::{EngineChoice, GuiConfig, is_loopback};
use super::info::StrengthControl;
use super::intent::MAX_MESSAGE;
use super::live::{self, LiveEngine, Report};
use super::session::{EngineInfo, Session};
use crate::console;
use crate::rules::Variant;

/// Pages that may be open at once (each may run three engine processes).
pub const MAX_SESSIONS: usize = 16;
/// Reports an engine thread may have waiting for its session.
const REPORT_QUEUE: usize = 256;
/// How often a session looks at its clocks.
const TICK: Duration = Duration::from_millis(200);
/// How long an engine may take to start when the server asks what it offers.
const PROBE_WAIT: Duration = Duration::from_secs(25);

/// What every request handler shares.
#[derive(Clone)]
pub struct AppState {
    engines: Arc<[EngineInfo]>,
    port: u16,
    named_host: Option<String>,
    sessions: Arc<Semaphore>,
}

/// Starts each engine once to read the options it announces (a strength control,
/// `MultiPV`), then ends it.
pub async fn probe(choices: &[EngineChoice]) -> Vec<EngineInfo> {
    let mut waits = Vec::new();
    for (i, choice) in choices.iter().enumerate() {
        let (sender, mut reports) = mpsc::channel(REPORT_QUEUE);
        let engine = LiveEngine::start(
            choice.spec.clone(),
            choice.name.clone(),
            Variant::default(),
            Vec::new(),
            sender,
            i,
            0,
        );
        waits.push(tokio::spawn(async move {
            let first = tokio::time::timeout(PROBE_WAIT, reports.recv()).await;
            drop(engine);
            match first {
                Ok(Some((_, _, Report::Ready { options, .. }))) => Ok(options),
                Ok(Some((_, _, Report::Failed(why)))) => Err(why),
                _ => Err("did not start in time".to_string()),
            }
        }));
    }
    let mut infos = Vec::new();
    for (choice, wait) in choices.iter().zip(waits) {
        let result = wait.await.unwrap_or_else(|e| Err(e.to_string()));
        let (options, problem) = match result {
            Ok(options) => (options, None),
            Err(why) => (Vec::new(), Some(why)),
        };
        infos.push(EngineInfo {
            choice: choice.clone(),
            strength: StrengthControl::of(&options),
            options,
            problem,
        });
    }
    infos
}

/// The routes, behind the Host/Origin guard.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(assets::INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(assets::APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(assets::STYLE_CSS, "text/css; charset=utf-8") }),
        )
        .route(
            "/favicon.svg",
            get(|| async { page(assets::FAVICON_SVG, "image/svg+xml") }),
        )
        .route("/ws", get(websocket))
        .fallback(|| async { refuse(StatusCode::NOT_FOUND, "not found") })
        .method_not_allowed_fallback(|| async {
            refuse(StatusCode::METHOD_NOT_ALLOWED, "only GET is served")
        })
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn refuse(status: StatusCode, why: &str) -> Response {
    (status, format!("{}: {why}\n", status.as_u16())).into_response()
}

/// Whether `host` (a Host header) names this server: an IP address or `localhost`, or
/// the name given with `--host`, with the server's port (which a browser leaves out
/// when it is 80, HTTP's default). Other names are refused, so a page from a rebound
/// DNS name cannot talk to the server.
fn host_allowed(host: &str, port: u16, named: Option<&str>) -> bool {
    let Some((name, given_port)) = split_host(host) else {
        return false;
    };
    let port_matches = match given_port {
        Some(p) => p.parse::<u16>() == Ok(port),
        None => port == 80,
    };
    port_matches
        && (name.parse::<std::net::IpAddr>().is_ok()
            || name.eq_ignore_ascii_case("localhost")
            || named.is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

/// A Host header's name (an IPv6 address without its brackets) and its port, if it
/// gives one; `None` if the brackets of an IPv6 address are not closed.
fn split_host(host: &str) -> Option<(&str, Option<&str>)> {
    if let Some(bracketed) = host.strip_prefix('[') {
        let (address, rest) = bracketed.split_once(']')?;
        return match rest {
            "" => Some((address, None)),
            _ => Some((address, Some(rest.strip_prefix(':')?))),
        };
    }
    Some(match host.split_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    })
}

/// Why a request is refused, if it is: a Host that is not this server's, or an Origin
/// that is not the page's own (a WebSocket must come with one).
fn check_request(
    headers: &HeaderMap,
    websocket: bool,
    port: u16,
    named: Option<&str>,
) -> Option<&'static str> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let Some(host) = text(header::HOST) else {
        return Some("no Host header");
    };
    if !host_allowed(host, port, named) {
        return Some("this server answers only to its own address (Host refused)");
    }
    match text(header::ORIGIN) {
        Some(origin) if origin != format!("http://{host}") => {
            Some("requests from other sites are refused (Origin refused)")
        }
        None if websocket => Some("a WebSocket needs the page's Origin"),
        _ => None,
    }
}

async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let websocket = request.uri().path() == "/ws";
    match check_request(
        request.headers(),
        websocket,
        state.port,
        state.named_host.as_deref(),
    ) {
        Some(why) => refuse(StatusCode::FORBIDDEN, why),
        None => next.run(request).await,
    }
}

async fn websocket(State(state): State<AppState>, upgrade: WebSocketUpgrade) -> Response {
    let Ok(permit) = state.sessions.clone().try_acquire_owned() else {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!("at most {MAX_SESSIONS} pages may be open at once"),
        );
    };
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| run_session(socket, state.engines, permit))
}

async fn run_session(
    mut socket: WebSocket,
    engines: Arc<[EngineInfo]>,
    _permit: OwnedSemaphorePermit,
) {
    let (sender, mut reports) = mpsc::channel(REPORT_QUEUE);
    let mut session = Session::new(engines, sender);
    let mut tick = tokio::time::interval(TICK);
    let mut out = session.hello();
    loop {
        for text in out.drain(..) {
            if socket.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
        out = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => session.handle(text.as_str()),
                Some(Ok(Message::Binary(_))) => session.handle(""),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => Vec::new(),
                // Closed, or broken: the session ends and with it its engines.
                _ => return,
            },
            Some((slot, incarnation, report)) = reports.recv() => {
                session.on_report(slot, incarnation, report)
            }
            _ = tick.tick() => session.tick(),
        };
    }
}

/// Runs the server until Ctrl-C, SIGTERM or SIGHUP, then ends every engine.
pub async fn run(config: GuiConfig) -> anyhow::Result<()> {
    if !is_loopback(&config.host) {
        console::warn(format!(
            "warning: listening on {}: other machines can open this page and run the engines on this computer",
            config.host
        ));
    }
    let host = config.host.trim_start_matches('[').trim_end_matches(']');
    let listener = tokio::net::TcpListener::bind((host, config.port))
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}:{}: {e}", config.host, config.port))?;
    let address: SocketAddr = listener.local_addr()?;
    use tokio::signal::unix::{SignalKind, signal};
    // Watched before any engine starts, so no signal can leave one behind.
    let signals = [
        signal(SignalKind::interrupt())?,
        signal(SignalKind::terminate())?,
        signal(SignalKind::hangup())?,
    ];
    let engines: Arc<[EngineInfo]> = probe(&config.engines).await.into();
    for e in engines.iter() {
        if let Some(problem) = &e.problem {
            console::warn(format!("warning: engine '{}': {problem}", e.choice.name));
        }
    }
    let named_host = host
        .parse::<std::net::IpAddr>()
        .is_err()
        .then(|| host.to_string());
    let state = AppState {
        engines,
        port: address.port(),
        named_host,
        sessions: Arc::new(Semaphore::new(MAX_SESSIONS)),
    };
    let shown = match address {
        SocketAddr::V6(a) if host.parse::<std::net::IpAddr>().is_ok() => format!("[{}]", a.ip()),
        SocketAddr::V4(a) if host.parse::<std::net::IpAddr>().is_ok() => a.ip().to_string(),
        _ => host.to_string(),
    };
    console::print(&format!("Open http://{shown}:{}/\n", address.port()))?;
    let app = router(state);
    tokio::select! {
        served = axum::serve(listener, app) => served?,
        () = stop_signal(signals) => {}
    }
    live::shut_down(Duration::from_secs(3));
    Ok(())
}

/// Waits for Ctrl-C (SIGINT), SIGTERM or SIGHUP (a closed terminal).
async fn stop_signal(mut signals: [tokio::signal::unix::Signal; 3]) {
    let [interrupt, terminate, hangup] = &mut signals;
    tokio::select! {
        _ = interrupt.recv() => {}
        _ = terminate.recv() => {}
        _ = hangup.recv() => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn only_the_servers_own_host_is_answered() {
        assert!(host_allowed("127.0.0.1:80", 80, None));
        assert!(host_allowed("localhost:80", 80, None));
        assert!(host_allowed("[::1]:80", 80, None));
        assert!(!host_allowed("127.0.0.1:81", 80, None));
        assert!(!host_allowed("evil.example:80", 80, None));
        assert!(host_allowed("127.0.0.1", 80, None));
        assert!(host_allowed("[::1]", 80, None));
        assert!(!host_allowed("127.0.0.1", 8080, None));
        assert!(!host_allowed("[::1", 80, None));
        assert!(!host_allowed("[::1]x80", 80, None));
        assert!(!host_allowed("::1:80", 80, None));
        assert!(host_allowed("box.lan:80", 80, Some("box.lan")));
    }

    #[test]
    fn foreign_origins_are_refused() {
        let ok = headers(&[("host", "127.0.0.1:8"), ("origin", "http://127.0.0.1:8")]);
        assert_eq!(check_request(&ok, true, 8, None), None);
        let foreign = headers(&[("host", "127.0.0.1:8"), ("origin", "http://evil.example")]);
        assert!(check_request(&foreign, false, 8, None).is_some());
        let no_origin = headers(&[("host", "127.0.0.1:8")]);
        assert_eq!(check_request(&no_origin, false, 8, None), None);
        assert!(check_request(&no_origin, true, 8, None).is_some());
        assert!(check_request(&HeaderMap::new(), false, 8, None).is_some());
    }
}
