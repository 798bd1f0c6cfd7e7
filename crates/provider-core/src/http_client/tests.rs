//! The provider client against a provider on loopback: a few lines of HTTP/1.1 that record
//! what arrived and answer what the test says.

use super::*;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the loopback provider saw: each request's head and body, and how many connections.
#[derive(Default)]
struct Seen {
    requests: Mutex<Vec<(String, Vec<u8>)>>,
    connections: AtomicUsize,
}

/// A provider on loopback answering every request with `answer` (`None`: never answers).
async fn provider(answer: Option<&'static str>) -> (String, Arc<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Seen::default());
    let recorded = seen.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            recorded.connections.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(serve(stream, answer, recorded.clone()));
        }
    });
    (base, seen)
}

/// The test authority, and `localhost`'s certificate (also for 127.0.0.1) it signed. Made
/// for these tests only, valid until 2126.
const TEST_CA: &[u8] = include_bytes!("testdata/ca.pem");
const LOCALHOST_CERT: &[u8] = include_bytes!("testdata/localhost.pem");
const LOCALHOST_KEY: &[u8] = include_bytes!("testdata/localhost.key");

/// A provider on loopback over TLS with `localhost`'s certificate, answering [`OK_JSON`].
async fn https_provider() -> (String, Arc<Seen>) {
    let chain = vec![CertificateDer::from_pem_slice(LOCALHOST_CERT).unwrap()];
    let key = PrivateKeyDer::from_pem_slice(LOCALHOST_KEY).unwrap();
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!(
        "https://localhost:{}",
        listener.local_addr().unwrap().port()
    );
    let seen = Arc::new(Seen::default());
    let recorded = seen.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            recorded.connections.fetch_add(1, Ordering::SeqCst);
            let (acceptor, recorded) = (acceptor.clone(), recorded.clone());
            tokio::spawn(async move {
                if let Ok(stream) = acceptor.accept(stream).await {
                    serve(stream, Some(OK_JSON), recorded).await;
                }
            });
        }
    });
    (base, seen)
}

async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
    mut stream: S,
    answer: Option<&'static str>,
    seen: Arc<Seen>,
) {
    let mut buffer = Vec::new();
    loop {
        let head_end = loop {
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            let mut chunk = [0; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
        let length = head
            .lines()
            .find_map(|line| {
                line.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse::<usize>().unwrap())
            })
            .unwrap_or(0);
        while buffer.len() < head_end + length {
            let mut chunk = [0; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        }
        let body = buffer[head_end..head_end + length].to_vec();
        buffer.drain(..head_end + length);
        seen.requests.lock().unwrap().push((head, body));
        let Some(answer) = answer else {
            tokio::time::sleep(Duration::from_secs(30)).await;
            return;
        };
        if stream.write_all(answer.as_bytes()).await.is_err() {
            return;
        }
    }
}

const OK_JSON: &str =
    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{\"id\":4242}";

fn client(timeout: Duration) -> ProviderHttp {
    ProviderHttp::with_proxies(timeout, Matcher::builder().build(), None, Vec::new()).unwrap()
}

/// GETs `base` + `path` with a bearer token, reading at most `limit` bytes.
async fn get(
    http: &ProviderHttp,
    base: &str,
    path: &str,
    limit: usize,
) -> Result<Answer, SendError> {
    let url = url::Url::parse(&format!("{base}{path}")).unwrap();
    http.send(
        http.get(url).bearer_auth("gho_token"),
        limit,
        CallKind::Userinfo,
    )
    .await
}

#[tokio::test]
async fn a_direct_call_arrives_as_built_with_the_default_headers_and_is_read_whole() {
    let (base, seen) = provider(Some(OK_JSON)).await;
    let http = client(Duration::from_secs(5));
    let answer = get(&http, &base, "/user?fields=id", 1024).await.unwrap();
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.headers["content-type"], "application/json");
    assert_eq!(answer.body, b"{\"id\":4242}");
    let (head, _) = seen.requests.lock().unwrap()[0].clone();
    let head = head.to_ascii_lowercase();
    assert!(
        head.starts_with("get /user?fields=id http/1.1\r\n"),
        "{head}"
    );
    assert!(
        head.contains(&format!(
            "user-agent: {}\r\n",
            USER_AGENT.to_ascii_lowercase()
        )),
        "{head}"
    );
    assert!(head.contains("accept: */*\r\n"), "{head}");
    assert!(
        head.contains("authorization: bearer gho_token\r\n"),
        "{head}"
    );
}

#[tokio::test]
async fn a_token_request_keeps_its_own_headers_and_body_and_reuses_the_connection() {
    let (base, seen) = provider(Some(OK_JSON)).await;
    let http = client(Duration::from_secs(5));
    for _ in 0..2 {
        let request = http::Request::post(format!("{base}/token"))
            .header("accept", "application/json")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(b"grant_type=authorization_code&code=abc".to_vec())
            .unwrap();
        let answer = http
            .send_http(request, 1024, CallKind::Token)
            .await
            .unwrap();
        assert_eq!(answer.status, StatusCode::OK);
        // The connection goes back to the pool once the answer is read, on hyper's own
        // task: let it, so the next call finds it rather than racing a new connect.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let requests = seen.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2);
    let (head, body) = &requests[1];
    assert!(head.starts_with("POST /token HTTP/1.1\r\n"), "{head}");
    assert!(
        head.contains("accept: application/json\r\n"),
        "ours, not */*: {head}"
    );
    assert!(!head.contains("*/*"), "{head}");
    assert_eq!(body, b"grant_type=authorization_code&code=abc");
    assert_eq!(
        seen.connections.load(Ordering::SeqCst),
        1,
        "one pooled connection"
    );
}

#[tokio::test]
async fn a_providers_own_user_agent_goes_with_every_call_that_names_none() {
    let (base, seen) = provider(Some(OK_JSON)).await;
    let agent = http::HeaderValue::from_static("web:app:1.0 (by /u/ops)");
    let http = client(Duration::from_secs(5)).with_user_agent(agent);
    get(&http, &base, "/user", 1024).await.unwrap();
    let token = http::Request::post(format!("{base}/token"))
        .body(b"code=abc".to_vec())
        .unwrap();
    http.send_http(token, 1024, CallKind::Token).await.unwrap();
    let own = http::Request::post(format!("{base}/revoke"))
        .header("user-agent", "its-own/2")
        .body(Vec::new())
        .unwrap();
    http.send_http(own, 1024, CallKind::Revocation)
        .await
        .unwrap();
    let heads: Vec<String> = (seen.requests.lock().unwrap().iter())
        .map(|(head, _)| head.to_ascii_lowercase())
        .collect();
    assert_eq!(heads.len(), 3);
    for head in &heads[..2] {
        assert!(
            head.contains("user-agent: web:app:1.0 (by /u/ops)\r\n"),
            "{head}"
        );
    }
    assert!(
        heads[2].contains("user-agent: its-own/2\r\n"),
        "{}",
        heads[2]
    );
    assert!(
        !heads[2].contains("web:app"),
        "one agent only: {}",
        heads[2]
    );
}

#[tokio::test]
async fn an_answer_over_the_limit_is_refused() {
    let (base, _) = provider(Some(OK_JSON)).await;
    let http = client(Duration::from_secs(5));
    let refused = get(&http, &base, "/user", 10).await.unwrap_err();
    assert_eq!(refused, SendError::TooLarge(10));
}

/// A provider answering 302 to `{elsewhere}/steal`, and `elsewhere`, which records whether a
/// client followed.
async fn redirecting_provider() -> (String, Arc<Seen>) {
    let (elsewhere, followed) = provider(Some(OK_JSON)).await;
    let redirect: &'static str =
        format!("HTTP/1.1 302 Found\r\nlocation: {elsewhere}/steal\r\ncontent-length: 0\r\n\r\n")
            .leak();
    let (base, _) = provider(Some(redirect)).await;
    (base, followed)
}

#[tokio::test]
async fn a_redirect_is_the_answer_and_is_not_followed_directly_or_through_a_proxy() {
    let (base, followed) = redirecting_provider().await;
    let http = client(Duration::from_secs(5));
    let answer = get(&http, &base, "/user", 1024).await.unwrap();
    assert_eq!(answer.status, StatusCode::FOUND);

    // Through a proxy (the redirecting provider itself, as proxies relay answers), reqwest
    // sends the call: were it to follow, it would go straight to `elsewhere` (exempt).
    let proxies = Matcher::builder()
        .http(base.clone())
        .no("127.0.0.1")
        .build();
    let no_proxy = reqwest::NoProxy::from_string("127.0.0.1");
    let proxy = reqwest::Proxy::http(&base).unwrap().no_proxy(no_proxy);
    let proxied =
        ProviderHttp::with_proxies(Duration::from_secs(5), proxies, Some(proxy), Vec::new())
            .unwrap();
    let answer = get(&proxied, "http://provider.example", "/user", 1024)
        .await
        .unwrap();
    assert_eq!(answer.status, StatusCode::FOUND);
    assert!(followed.requests.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_connect_that_never_finishes_its_handshake_ends_at_the_connect_timeout() {
    // A peer that accepts TCP and never answers the TLS handshake.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    let mut connector = direct::connector(Duration::from_millis(300), Vec::new()).unwrap();
    let uri: http::Uri = format!("https://localhost:{port}/").parse().unwrap();
    let started = std::time::Instant::now();
    let failed = tower_service::Service::call(&mut connector, uri)
        .await
        .err()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let io = failed
        .downcast_ref::<std::io::Error>()
        .expect("an I/O error");
    assert_eq!(io.kind(), std::io::ErrorKind::TimedOut);
}

#[tokio::test]
async fn a_provider_that_never_answers_times_out_within_the_budget() {
    let (base, seen) = provider(None).await;
    let http = client(Duration::from_millis(300));
    let started = std::time::Instant::now();
    let failed = get(&http, &base, "/user", 1024).await.unwrap_err();
    assert_eq!(failed, SendError::Transport("timed out"));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        seen.requests.lock().unwrap().len(),
        1,
        "the request was sent"
    );
}

#[tokio::test]
async fn a_closed_port_could_not_be_reached() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    let http = client(Duration::from_secs(5));
    let failed = get(&http, &format!("http://{address}"), "/user", 1024)
        .await
        .unwrap_err();
    assert_eq!(failed, SendError::Transport("could not be reached"));
}

#[tokio::test]
async fn a_call_a_proxy_must_carry_goes_through_it_and_an_exempt_one_goes_direct() {
    let (proxy, through_proxy) = provider(Some(OK_JSON)).await;
    let (base, direct) = provider(Some(OK_JSON)).await;
    let proxies = Matcher::builder()
        .http(proxy.clone())
        .no("127.0.0.1")
        .build();
    let reqwest_proxy = reqwest::Proxy::http(&proxy).unwrap();
    let http = ProviderHttp::with_proxies(
        Duration::from_secs(5),
        proxies,
        Some(reqwest_proxy),
        Vec::new(),
    )
    .unwrap();

    let answer = get(&http, "http://provider.example", "/user", 1024)
        .await
        .unwrap();
    assert_eq!(answer.status, StatusCode::OK);
    let token = http::Request::post("http://provider.example/token")
        .body(b"code=abc".to_vec())
        .unwrap();
    assert_eq!(
        http.send_http(token, 1024, CallKind::Token)
            .await
            .unwrap()
            .status,
        StatusCode::OK
    );
    let heads: Vec<String> = through_proxy
        .requests
        .lock()
        .unwrap()
        .iter()
        .map(|(h, _)| h.clone())
        .collect();
    assert_eq!(heads.len(), 2, "{heads:?}");
    assert!(
        heads[0].starts_with("GET http://provider.example/user HTTP/1.1"),
        "{heads:?}"
    );
    assert!(
        heads[1].starts_with("POST http://provider.example/token HTTP/1.1"),
        "{heads:?}"
    );

    get(&http, &base, "/user", 1024).await.unwrap();
    assert_eq!(direct.requests.lock().unwrap().len(), 1);
    assert_eq!(through_proxy.requests.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn an_https_provider_whose_certificate_chains_to_a_trusted_authority_is_called() {
    let (base, seen) = https_provider().await;
    let roots = vec![CertificateDer::from_pem_slice(TEST_CA).unwrap()];
    let http = ProviderHttp::with_proxies(
        Duration::from_secs(5),
        Matcher::builder().build(),
        None,
        roots,
    )
    .unwrap();
    let answer = get(&http, &base, "/user", 1024).await.unwrap();
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, b"{\"id\":4242}");
    let (head, _) = seen.requests.lock().unwrap()[0].clone();
    assert!(head.starts_with("GET /user HTTP/1.1\r\n"), "{head}");
}

#[tokio::test]
async fn an_https_provider_whose_certificate_nobody_trusted_vouches_for_is_refused() {
    let (base, seen) = https_provider().await;
    let http = client(Duration::from_secs(5));
    let refused = get(&http, &base, "/user", 1024).await.unwrap_err();
    assert_eq!(refused, SendError::Transport("could not be reached"));
    assert_eq!(seen.connections.load(Ordering::SeqCst), 1, "it did connect");
    assert!(
        seen.requests.lock().unwrap().is_empty(),
        "no request crossed"
    );
}

#[test]
fn an_answer_shows_its_bodys_length_not_the_tokens_in_it() {
    let answer = Answer {
        status: StatusCode::OK,
        headers: HeaderMap::new(),
        body: br#"{"access_token":"gho_secret-token-value"}"#.to_vec(),
    };
    let shown = format!("{answer:?}");
    assert!(
        !shown.contains("secret-token-value") && shown.contains("41 bytes"),
        "{shown}"
    );
}
