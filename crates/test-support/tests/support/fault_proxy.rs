//! The fault proxy against a real echo server on loopback: forwards, cuts, refuses, restores,
//! and caps its connections.

use social_login_test_support::{FaultProxy, MAX_PROXIED_CONNECTIONS};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A server that echoes every byte back, one task per connection.
async fn echo_server() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let (mut read, mut write) = stream.split();
                let _ = tokio::io::copy(&mut read, &mut write).await;
            });
        }
    });
    addr
}

/// Sends `ping` and reports whether it came back (false: reset, closed or silent).
async fn echoes(stream: &mut TcpStream) -> bool {
    if stream.write_all(b"ping").await.is_err() {
        return false;
    }
    let mut answer = [0_u8; 4];
    matches!(
        tokio::time::timeout(Duration::from_secs(2), stream.read_exact(&mut answer)).await,
        Ok(Ok(_)) if &answer == b"ping"
    )
}

async fn connect(proxy: &FaultProxy) -> TcpStream {
    TcpStream::connect(proxy.addr()).await.unwrap()
}

#[tokio::test]
async fn bytes_flow_both_ways_through_the_proxy() {
    let proxy = FaultProxy::start(echo_server().await).await.unwrap();
    let mut stream = connect(&proxy).await;
    assert!(echoes(&mut stream).await);
    assert!(echoes(&mut stream).await, "the connection stays usable");
}

#[tokio::test]
async fn a_cut_ends_open_connections_and_refuses_new_ones_until_restored() {
    let proxy = FaultProxy::start(echo_server().await).await.unwrap();
    let mut open = connect(&proxy).await;
    assert!(echoes(&mut open).await);

    proxy.cut();
    assert!(!echoes(&mut open).await, "the open connection was reset");
    let mut during = connect(&proxy).await;
    assert!(!echoes(&mut during).await, "a new connection is refused");

    proxy.restore();
    let mut after = connect(&proxy).await;
    assert!(echoes(&mut after).await, "new connections work again");
}

#[tokio::test]
async fn connections_past_the_cap_are_refused_and_a_closed_one_frees_its_slot() {
    let proxy = FaultProxy::start(echo_server().await).await.unwrap();
    let mut held = Vec::new();
    for _ in 0..MAX_PROXIED_CONNECTIONS {
        let mut stream = connect(&proxy).await;
        assert!(echoes(&mut stream).await);
        held.push(stream);
    }
    assert_eq!(proxy.open_connections(), MAX_PROXIED_CONNECTIONS);
    let mut extra = connect(&proxy).await;
    assert!(!echoes(&mut extra).await, "one past the cap is refused");

    drop(held.pop());
    let freed = async {
        while proxy.open_connections() == MAX_PROXIED_CONNECTIONS {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), freed)
        .await
        .expect("the closed connection gives its slot back");
    let mut next = connect(&proxy).await;
    assert!(echoes(&mut next).await);
}

#[tokio::test]
async fn a_url_is_routed_through_the_proxy_keeping_user_path_and_query() {
    let proxy = FaultProxy::in_front_of("postgres://app:pw@127.0.0.1:5432/db?sslmode=disable")
        .await
        .unwrap();
    let routed = proxy.route("postgres://app:pw@127.0.0.1:5432/db?sslmode=disable");
    assert_eq!(
        routed,
        format!(
            "postgres://app:pw@127.0.0.1:{}/db?sslmode=disable",
            proxy.addr().port()
        )
    );
}
