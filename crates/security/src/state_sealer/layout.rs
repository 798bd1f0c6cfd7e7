//! The plaintext inside a sealed state value: a fixed binary layout, decoded strictly.
//!
//! `expires_at (i64 BE unix seconds) ‖ id (16) ‖ provider ‖ purpose (0 login | 1 connect +
//! user uuid (16); with the bit 0x80 set, the client's binding (16) follows) ‖ PKCE verifier
//! ‖ nonce [‖ extra scopes]`, where provider, verifier, nonce and the extra scopes (space
//! separated; only when a connect asked for some) are one length byte followed by that many
//! bytes. Compact, so the value stays far below what providers accept as `state`. A value
//! without the last field (every one sealed before it existed) opens as asking for no extra
//! scope; one without the bit, as bound to no client.

use social_login_domain::{
    OAuthState, ProviderKey, Purpose, Scopes, SecretText, StateBinding, StateId, UserId,
};
use time::OffsetDateTime;
use uuid::Uuid;

const LOGIN: u8 = 0;
const CONNECT: u8 = 1;
/// Set on the purpose byte of a value bound to a client.
const BOUND: u8 = 0x80;

/// Bytes of the largest layout the service issues: expiry, id, a provider key of 32, a
/// connect's user id and binding, and the 43-character verifier and nonce (`random_url_token`);
/// a connect's extra scopes are left out. What a
/// sealer sizes its buffer for; a longer field still fits, after one reallocation.
pub(super) const CAPACITY: usize = 8 + 16 + (1 + 32) + (1 + 16 + 16) + 2 * (1 + 43);

/// Appends the layout of `state` to `out`; `None` when a field does not fit its length byte.
pub(super) fn encode_into(state: &OAuthState, out: &mut Vec<u8>) -> Option<()> {
    out.extend_from_slice(&state.expires_at.unix_timestamp().to_be_bytes());
    out.extend_from_slice(state.id.as_bytes());
    put_short(out, state.provider.as_str().as_bytes())?;
    let bound = if state.binding.is_some() { BOUND } else { 0 };
    match state.purpose {
        Purpose::Login => out.push(LOGIN | bound),
        Purpose::Connect { user } => {
            out.push(CONNECT | bound);
            out.extend_from_slice(user.as_uuid().as_bytes());
        }
    }
    if let Some(binding) = &state.binding {
        out.extend_from_slice(binding.as_bytes());
    }
    put_short(out, state.pkce_verifier.expose().as_bytes())?;
    put_short(out, state.nonce.expose().as_bytes())?;
    let extra = state.extra_scopes.as_str();
    if !extra.is_empty() {
        put_short(out, extra.as_bytes())?;
    }
    Some(())
}

/// The state, or `None` unless `bytes` is exactly one well-formed layout.
pub(super) fn decode(bytes: &[u8]) -> Option<OAuthState> {
    let mut reader = Reader(bytes);
    let expires_at =
        OffsetDateTime::from_unix_timestamp(i64::from_be_bytes(reader.array()?)).ok()?;
    let id = StateId::from_bytes(reader.array()?);
    let provider: ProviderKey = std::str::from_utf8(reader.short()?).ok()?.parse().ok()?;
    let tag = reader.byte()?;
    let purpose = match tag & !BOUND {
        LOGIN => Purpose::Login,
        CONNECT => Purpose::Connect {
            user: UserId::from_uuid(Uuid::from_bytes(reader.array()?)),
        },
        _ => return None,
    };
    let binding = match tag & BOUND {
        0 => None,
        _ => Some(StateBinding::from_bytes(reader.array()?)),
    };
    let pkce_verifier = SecretText::new(std::str::from_utf8(reader.short()?).ok()?);
    let nonce = SecretText::new(std::str::from_utf8(reader.short()?).ok()?);
    let extra_scopes = match reader.0.is_empty() {
        true => Scopes::default(),
        false => Scopes::from_stored(std::str::from_utf8(reader.short()?).ok()?.to_owned()),
    };
    reader.0.is_empty().then_some(OAuthState {
        id,
        provider,
        purpose,
        pkce_verifier,
        nonce,
        expires_at,
        extra_scopes,
        binding,
    })
}

fn put_short(out: &mut Vec<u8>, field: &[u8]) -> Option<()> {
    out.push(u8::try_from(field.len()).ok()?);
    out.extend_from_slice(field);
    Some(())
}

/// Reads fields off the front of a byte slice; every read is bounds-checked.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn short(&mut self) -> Option<&'a [u8]> {
        let len = self.byte()?;
        self.take(usize::from(len))
    }
}
