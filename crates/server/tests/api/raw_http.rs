//! A small HTTP/1.1 client over a raw `TcpStream`, for what reqwest hides: when exactly the
//! server closes a connection, whether a response said `Connection: close`, and clients that
//! send their request slowly or in pieces.

use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest response head or body the tests expect; anything bigger is a test failure.
const MAX_RESPONSE_BYTES: usize = 1 << 20;

pub struct RawConnection {
    stream: TcpStream,
    /// Bytes read past the end of the last response.
    pending: Vec<u8>,
}

#[derive(Debug)]
pub struct RawResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The server announced it closes the connection after this response.
    pub fn closes_connection(&self) -> bool {
        self.header("connection")
            .is_some_and(|value| value.to_ascii_lowercase().contains("close"))
    }
}

/// What came back for one request.
#[derive(Debug)]
pub enum Outcome {
    Response(RawResponse),
    /// End of stream or a reset before a whole response arrived.
    Dropped {
        received: usize,
        error: Option<String>,
    },
    /// Nothing complete within the time allowed.
    TimedOut {
        received: usize,
    },
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Response(response) => write!(f, "a {} response", response.status),
            Self::Dropped { received, error } => write!(
                f,
                "closed after {received} bytes of a response ({})",
                error.as_deref().unwrap_or("end of stream")
            ),
            Self::TimedOut { received } => {
                write!(f, "timed out after {received} bytes of a response")
            }
        }
    }
}

impl RawConnection {
    pub async fn open(address: std::net::SocketAddr) -> Self {
        let stream = TcpStream::connect(address).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        Self {
            stream,
            pending: Vec::new(),
        }
    }

    /// Connects from `local`, another loopback address than the usual 127.0.0.1: a second
    /// client IP on a machine that has only loopback.
    pub async fn open_from(local: std::net::IpAddr, address: std::net::SocketAddr) -> Self {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind(std::net::SocketAddr::new(local, 0))
            .expect("bind a loopback source address");
        let stream = socket.connect(address).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        Self {
            stream,
            pending: Vec::new(),
        }
    }

    /// Writes `bytes`; an error means the server already closed or reset the connection.
    pub async fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.write_all(bytes).await?;
        self.stream.flush().await
    }

    /// Reads exactly one response (the body framed by `Content-Length`).
    pub async fn read_response(&mut self, within: Duration) -> Outcome {
        let mut received = std::mem::take(&mut self.pending);
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(response) = parse_response(&mut received) {
                self.pending = received;
                return Outcome::Response(response);
            }
            assert!(received.len() < MAX_RESPONSE_BYTES, "response too large");
            let mut chunk = [0u8; 8192];
            match tokio::time::timeout_at(deadline, self.stream.read(&mut chunk)).await {
                Err(_) => {
                    return Outcome::TimedOut {
                        received: received.len(),
                    };
                }
                Ok(Ok(0)) => {
                    return Outcome::Dropped {
                        received: received.len(),
                        error: None,
                    };
                }
                Ok(Ok(read)) => received.extend_from_slice(&chunk[..read]),
                Ok(Err(error)) => {
                    return Outcome::Dropped {
                        received: received.len(),
                        error: Some(error.to_string()),
                    };
                }
            }
        }
    }

    /// Reads until the server closes the connection (end of stream or reset) and returns
    /// when that happened and everything received meanwhile (and not yet returned by an
    /// earlier call); `None` if it is still open after `within`.
    pub async fn wait_for_close(&mut self, within: Duration) -> Option<(Duration, Vec<u8>)> {
        let started = Instant::now();
        let mut received = std::mem::take(&mut self.pending);
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let mut chunk = [0u8; 8192];
            match tokio::time::timeout_at(deadline, self.stream.read(&mut chunk)).await {
                Err(_) => {
                    self.pending = received;
                    return None;
                }
                Ok(Ok(0)) | Ok(Err(_)) => return Some((started.elapsed(), received)),
                Ok(Ok(read)) => {
                    received.extend_from_slice(&chunk[..read]);
                    assert!(received.len() < MAX_RESPONSE_BYTES, "response too large");
                }
            }
        }
    }
}

/// Parses one complete response off the front of `buffer`, leaving the rest there.
fn parse_response(buffer: &mut Vec<u8>) -> Option<RawResponse> {
    let head_end = buffer.windows(4).position(|window| window == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&buffer[..head_end]).expect("response head is ASCII");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().expect("status line");
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .map(|(_, value)| value.parse().expect("numeric content-length"))
        .expect("every response of the service has a Content-Length");
    let body_start = head_end + 4;
    if buffer.len() < body_start + length {
        return None;
    }
    let body = buffer[body_start..body_start + length].to_vec();
    buffer.drain(..body_start + length);
    Some(RawResponse {
        status,
        headers,
        body,
    })
}

/// A request head for `path` with a JSON body of `body_length` bytes to follow.
pub fn request_head(method: &str, path: &str, body_length: usize) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {body_length}\r\n\r\n"
    )
}

/// The socket address of a `http://IP:port` base URL.
pub fn address_of(base: &str) -> std::net::SocketAddr {
    base.trim_start_matches("http://")
        .parse()
        .expect("base URL is http://IP:port")
}
