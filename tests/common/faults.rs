//! A fault-injecting TCP proxy for the cluster tests: one [`FaultProxy`] sits between one node
//! and one server (PostgreSQL or NATS), and the test flips what the link does while the node
//! runs, as a Jepsen-style nemesis would:
//!
//! * [`Fault::Pass`]: bytes flow both ways;
//! * [`Fault::Blackhole`]: bytes are read and *held*, neither delivered nor refused, as on a
//!   partitioned network; when the link passes again the held bytes are delivered, late, in
//!   order (so a request the node sent during the partition arrives long after its sender gave
//!   up on it);
//! * [`Fault::Delay`]: every chunk is delivered `delay` after it was read, order kept;
//! * [`Fault::Reset`]: every open connection is cut at once and new ones are accepted and cut
//!   (the peer sees a reset or an EOF), until the fault changes.
//!
//! The proxy listens on 127.0.0.1 on a port of its own; give the node [`FaultProxy::url`]
//! instead of the server's. Dropping the proxy stops it and closes every connection.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;

/// What a link does to the bytes that cross it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Pass,
    Blackhole,
    Delay(Duration),
    Reset,
}

/// One proxied link: a listener on loopback forwarding to `upstream`.
pub struct FaultProxy {
    pub addr: SocketAddr,
    upstream: SocketAddr,
    fault: watch::Sender<Fault>,
    task: tokio::task::JoinHandle<()>,
}

impl FaultProxy {
    /// Starts a proxy to `upstream` (`host:port`), passing bytes until told otherwise.
    pub async fn start(upstream: &str) -> FaultProxy {
        let upstream: SocketAddr = tokio::net::lookup_host(upstream)
            .await
            .expect("resolve the upstream")
            .next()
            .expect("the upstream has an address");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the proxy");
        let addr = listener.local_addr().expect("the proxy's address");
        let (fault, faults) = watch::channel(Fault::Pass);
        let task = tokio::spawn(accept(listener, upstream, faults));
        FaultProxy {
            addr,
            upstream,
            fault,
            task,
        }
    }

    /// The proxy in front of the server that `url` names (`scheme://[user@]host:port[/...]`):
    /// returns the proxy and `url` rewritten to go through it.
    pub async fn in_front_of(url: &str) -> (FaultProxy, String) {
        let (scheme, rest) = url.split_once("://").expect("a URL with a scheme");
        let (credentials, rest) = match rest.rsplit_once('@') {
            Some((credentials, rest)) => (format!("{credentials}@"), rest),
            None => (String::new(), rest),
        };
        let (authority, path) = match rest.find('/') {
            Some(index) => (&rest[..index], &rest[index..]),
            None => (rest, ""),
        };
        let proxy = FaultProxy::start(authority).await;
        let proxied = format!("{scheme}://{credentials}{}{path}", proxy.addr);
        (proxy, proxied)
    }

    pub fn set(&self, fault: Fault) {
        self.fault.send_replace(fault);
    }

    pub fn fault(&self) -> Fault {
        *self.fault.borrow()
    }

    pub fn upstream(&self) -> SocketAddr {
        self.upstream
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn accept(listener: TcpListener, upstream: SocketAddr, faults: watch::Receiver<Fault>) {
    let mut links = tokio::task::JoinSet::new();
    loop {
        let Ok((client, _)) = listener.accept().await else {
            return;
        };
        if *faults.borrow() == Fault::Reset {
            reset(client);
            continue;
        }
        let faults = faults.clone();
        links.spawn(async move {
            // A blackholed link still accepts (the SYN got through) but the server never
            // hears of it until the link passes again: connect lazily, under the fault.
            let Ok(server) = TcpStream::connect(upstream).await else {
                reset(client);
                return;
            };
            let _ = client.set_nodelay(true);
            let _ = server.set_nodelay(true);
            let (client_read, client_write) = client.into_split();
            let (server_read, server_write) = server.into_split();
            tokio::select! {
                _ = pump(client_read, server_write, faults.clone()) => {}
                _ = pump(server_read, client_write, faults) => {}
            }
        });
        // Reap finished links so the set does not grow for ever.
        while links.try_join_next().is_some() {}
    }
}

/// Closes a socket with a RST (linger 0), as a cut link looks to its peer.
// Deprecated because a non-zero linger blocks the dropping thread; a zero one never does.
#[allow(deprecated)]
fn reset(stream: TcpStream) {
    let _ = stream.set_linger(Some(Duration::ZERO));
    drop(stream);
}

/// Moves bytes from `from` to `to` under the current fault, until either side closes or the
/// link is reset. Bytes read under a blackhole or a delay wait in `held`, in order.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mut faults: watch::Receiver<Fault>,
) {
    let mut held: VecDeque<(Instant, Vec<u8>)> = VecDeque::new();
    let mut buffer = vec![0u8; 16 * 1024];
    let mut open = true;
    loop {
        let fault = *faults.borrow_and_update();
        if fault == Fault::Reset {
            // Dropping both halves of each direction closes the sockets; with the client's
            // half gone the node sees its connection die.
            return;
        }
        // Deliver what is due.
        let now = Instant::now();
        while let Some((at, _)) = held.front() {
            let due = match fault {
                Fault::Pass => true,
                Fault::Delay(delay) => *at + delay <= now,
                Fault::Blackhole | Fault::Reset => false,
            };
            if !due {
                break;
            }
            let (_, chunk) = held.pop_front().expect("a held chunk");
            if to.write_all(&chunk).await.is_err() {
                return;
            }
        }
        if !open && held.is_empty() {
            let _ = to.shutdown().await;
            return;
        }
        let next_due = match (fault, held.front()) {
            (Fault::Delay(delay), Some((at, _))) => Some(*at + delay),
            _ => None,
        };
        tokio::select! {
            read = from.read(&mut buffer), if open => match read {
                Ok(0) | Err(_) => open = false,
                Ok(count) => held.push_back((Instant::now(), buffer[..count].to_vec())),
            },
            changed = faults.changed() => {
                if changed.is_err() {
                    return;
                }
            }
            _ = tokio::time::sleep_until(next_due.unwrap_or_else(Instant::now)), if next_due.is_some() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn echo_server() -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut buffer = [0u8; 1024];
                    while let Ok(count) = socket.read(&mut buffer).await {
                        if count == 0 || socket.write_all(&buffer[..count]).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        addr
    }

    async fn round_trip(stream: &mut TcpStream, bytes: &[u8], within: Duration) -> Option<Vec<u8>> {
        stream.write_all(bytes).await.ok()?;
        let mut answer = vec![0u8; bytes.len()];
        tokio::time::timeout(within, stream.read_exact(&mut answer))
            .await
            .ok()?
            .ok()?;
        Some(answer)
    }

    #[tokio::test]
    async fn passes_holds_delays_and_resets() {
        let upstream = echo_server().await;
        let proxy = FaultProxy::start(&upstream.to_string()).await;
        let mut stream = TcpStream::connect(proxy.addr).await.unwrap();
        let quick = Duration::from_millis(500);
        assert_eq!(
            round_trip(&mut stream, b"one", quick).await.as_deref(),
            Some(&b"one"[..])
        );

        // Held, not refused: nothing comes back while the link is a blackhole...
        proxy.set(Fault::Blackhole);
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(
            round_trip(&mut stream, b"two", Duration::from_millis(300)).await,
            None
        );
        // ...and the held bytes arrive, in order, once it passes again.
        proxy.set(Fault::Pass);
        let mut answer = [0u8; 3];
        tokio::time::timeout(quick, stream.read_exact(&mut answer))
            .await
            .expect("held bytes delivered")
            .unwrap();
        assert_eq!(&answer, b"two");

        proxy.set(Fault::Delay(Duration::from_millis(150)));
        tokio::time::sleep(Duration::from_millis(20)).await;
        let started = Instant::now();
        assert_eq!(
            round_trip(&mut stream, b"six", quick).await.as_deref(),
            Some(&b"six"[..])
        );
        // Delayed both ways.
        assert!(
            started.elapsed() >= Duration::from_millis(290),
            "{:?}",
            started.elapsed()
        );

        proxy.set(Fault::Reset);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let mut buffer = [0u8; 8];
        let read = tokio::time::timeout(quick, stream.read(&mut buffer))
            .await
            .expect("closed at once");
        assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
        let mut fresh = TcpStream::connect(proxy.addr).await.unwrap();
        assert_eq!(
            round_trip(&mut fresh, b"no", Duration::from_millis(300)).await,
            None
        );

        proxy.set(Fault::Pass);
        let mut again = TcpStream::connect(proxy.addr).await.unwrap();
        assert_eq!(
            round_trip(&mut again, b"back", quick).await.as_deref(),
            Some(&b"back"[..])
        );
    }

    #[tokio::test]
    async fn rewrites_a_url_to_go_through_the_proxy() {
        let upstream = echo_server().await;
        let url = format!("postgres://postgres@{upstream}/test");
        let (proxy, proxied) = FaultProxy::in_front_of(&url).await;
        assert_eq!(proxy.upstream(), upstream);
        assert_eq!(proxied, format!("postgres://postgres@{}/test", proxy.addr));
        let (_, plain) = FaultProxy::in_front_of(&format!("nats://{upstream}")).await;
        assert!(plain.starts_with("nats://127.0.0.1:"), "{plain}");
        assert_ne!(plain, format!("nats://{upstream}"));
    }
}
