//! A link's grant for relayed calls: read with its sealed tokens, and refreshed by exactly
//! one caller at a time (a lease on the row), whoever else asks, on whichever instance.

use super::Repository;
use super::fixtures::{login_of, new_user, now, signed_in_user, store_user_with_link};
use social_login_domain::SealedTokens;
use social_login_domain::relay::{GrantRenewal, RefusedGrant, RelayRefresh};
use social_login_domain::{AuditEventType, ProviderKey, Scopes, SealedToken, UserId};
use social_login_ports::{GrantLookup, LeaseRelease, LinkGrant, RefreshClaim};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};
use tokio::sync::Barrier;

async fn github_grant(repo: &dyn Repository) -> (UserId, LinkGrant) {
    let ada =
        store_user_with_link(repo, "ada@example.com", false, (ProviderKey::GITHUB, "42")).await;
    (ada.id, github_grant_of(repo, ada.id).await)
}

/// The user's GitHub grant as stored now.
async fn github_grant_of(repo: &dyn Repository, user: UserId) -> LinkGrant {
    match repo.grant_of(user, ProviderKey::GITHUB).await {
        Ok(GrantLookup::Grant(grant)) => grant,
        other => panic!("expected the user's GitHub link, got {other:?}"),
    }
}

fn claim(grant: &LinkGrant, at: OffsetDateTime) -> RefreshClaim {
    RefreshClaim {
        link: grant.link,
        seen: grant.tokens.access_token.clone(),
        now: at,
        until: at + Duration::seconds(30),
    }
}

fn refresh(user: UserId, grant: &LinkGrant, access: &str, refresh: Option<&str>) -> RelayRefresh {
    RelayRefresh {
        user,
        provider: ProviderKey::GITHUB,
        renewal: GrantRenewal {
            link: grant.link,
            seen: grant.tokens.access_token.clone(),
            tokens: SealedTokens {
                access_token: SealedToken::new(access),
                refresh_token: refresh.map(SealedToken::new),
                scopes: Scopes::default(),
                access_expires_at: Some(now() + Duration::hours(1)),
                client_id: None,
            },
            at: now(),
        },
        audit: crate::audit_now(),
    }
}

pub async fn a_grant_is_the_users_link_of_that_provider_with_its_sealed_tokens(
    repo: Arc<dyn Repository>,
) {
    let (ada, grant) = github_grant(&*repo).await;
    assert_eq!(
        grant.tokens.access_token,
        SealedToken::new("k1:sealed-access")
    );
    assert_eq!(
        grant.tokens.refresh_token,
        Some(SealedToken::new("k1:sealed-refresh"))
    );
    assert_eq!(grant.refresh_lease_until, None);
    assert!(!grant.disabled);
    assert!(!grant.user_locked);
    let google = repo.grant_of(ada, ProviderKey::GOOGLE).await;
    assert_eq!(google, Ok(GrantLookup::NoLink));
    let grace = new_user(Some("grace@example.com"), true);
    let nobody = repo.grant_of(grace.id, ProviderKey::GITHUB).await;
    assert_eq!(nobody, Ok(GrantLookup::NoUser), "a user never stored");

    // The same read says when an operator locked the user.
    let lock = social_login_ports::LockChange {
        user: ada,
        locked: true,
        audit: crate::audit_now(),
    };
    assert_eq!(repo.set_locked(lock).await, Ok(true));
    assert!(github_grant_of(&*repo, ada).await.user_locked);
}

pub async fn a_login_stores_when_its_access_token_expires(repo: Arc<dyn Repository>) {
    let expires = now() + Duration::minutes(59);
    let mut login = login_of(ProviderKey::GITHUB, "7", Some("ada@example.com"), true);
    login.tokens.access_expires_at = Some(expires);
    let ada = signed_in_user(&*repo, login.clone()).await;
    let grant = github_grant_of(&*repo, ada).await;
    assert_eq!(grant.tokens.access_expires_at, Some(expires));

    // A returning login's new token says its own expiry, and one that did not say
    // forgets the old one.
    let mut again = login_of(ProviderKey::GITHUB, "7", Some("ada@example.com"), true);
    again.tokens.access_token = SealedToken::new("k2:access");
    signed_in_user(&*repo, again).await;
    let grant = github_grant_of(&*repo, ada).await;
    assert_eq!(grant.tokens.access_token, SealedToken::new("k2:access"));
    assert_eq!(grant.tokens.access_expires_at, None);
}

pub async fn one_caller_holds_a_refresh_lease_until_it_lapses_or_the_tokens_change(
    repo: Arc<dyn Repository>,
) {
    let (ada, grant) = github_grant(&*repo).await;
    assert_eq!(repo.claim_refresh(claim(&grant, now())).await, Ok(true));
    let leased = github_grant_of(&*repo, ada).await;
    assert_eq!(
        leased.refresh_lease_until,
        Some(now() + Duration::seconds(30))
    );
    // Held: nobody else, however often asked, until it lapses.
    assert_eq!(repo.claim_refresh(claim(&grant, now())).await, Ok(false));
    let later = now() + Duration::seconds(29);
    assert_eq!(repo.claim_refresh(claim(&grant, later)).await, Ok(false));
    let lapsed = now() + Duration::seconds(31);
    assert_eq!(repo.claim_refresh(claim(&grant, lapsed)).await, Ok(true));

    // A claim on tokens that are no longer stored is refused, lease or not.
    let stale = RefreshClaim {
        seen: SealedToken::new("k0:older"),
        ..claim(&grant, now() + Duration::hours(1))
    };
    assert_eq!(repo.claim_refresh(stale).await, Ok(false));
}

pub async fn of_concurrent_claims_on_one_grant_exactly_one_wins(repo: Arc<dyn Repository>) {
    let (_, grant) = github_grant(&*repo).await;
    for round in 0..6i64 {
        let at = now() + Duration::minutes(round);
        let barrier = Arc::new(Barrier::new(4));
        let racers: Vec<_> = (0..4)
            .map(|_| {
                let (repo, barrier, claim) = (repo.clone(), barrier.clone(), claim(&grant, at));
                tokio::spawn(async move {
                    barrier.wait().await;
                    repo.claim_refresh(claim).await.unwrap()
                })
            })
            .collect();
        let mut won = 0;
        for racer in racers {
            won += usize::from(racer.await.unwrap());
        }
        assert_eq!(won, 1, "round {round}");
    }
}

pub async fn a_refresh_is_stored_only_over_the_token_it_began_from_and_ends_the_lease(
    repo: Arc<dyn Repository>,
) {
    let (ada, grant) = github_grant(&*repo).await;
    assert_eq!(repo.claim_refresh(claim(&grant, now())).await, Ok(true));
    let first = refresh(ada, &grant, "k1:fresh", Some("k1:rotated"));
    assert_eq!(repo.store_refresh(first.clone()).await, Ok(true));

    let stored = github_grant_of(&*repo, ada).await;
    assert_eq!(stored.tokens.access_token, SealedToken::new("k1:fresh"));
    assert_eq!(
        stored.tokens.refresh_token,
        Some(SealedToken::new("k1:rotated"))
    );
    assert_eq!(
        stored.tokens.access_expires_at,
        Some(now() + Duration::hours(1))
    );
    assert_eq!(stored.refresh_lease_until, None, "the lease ended with it");
    let events = repo.list_events(ada, 10).await.unwrap();
    assert_eq!(events[0].kind, AuditEventType::ProviderTokenRefreshed);

    // A second refresh begun from the old token writes nothing and records nothing.
    let late = refresh(ada, &grant, "k1:late", None);
    assert_eq!(repo.store_refresh(late).await, Ok(false));
    let kept = github_grant_of(&*repo, ada).await;
    assert_eq!(kept.tokens.access_token, SealedToken::new("k1:fresh"));
    assert_eq!(repo.list_events(ada, 10).await.unwrap().len(), events.len());

    // No refresh token in the answer keeps the stored one.
    let without = refresh(ada, &kept, "k1:third", None);
    assert_eq!(repo.store_refresh(without).await, Ok(true));
    let third = github_grant_of(&*repo, ada).await;
    assert_eq!(
        third.tokens.refresh_token,
        Some(SealedToken::new("k1:rotated"))
    );
}

pub async fn a_released_lease_frees_the_grant_at_once(repo: Arc<dyn Repository>) {
    let (ada, grant) = github_grant(&*repo).await;
    let claimed = claim(&grant, now());
    assert_eq!(repo.claim_refresh(claimed.clone()).await, Ok(true));
    repo.release_refresh(release(&claimed)).await.unwrap();
    let released = github_grant_of(&*repo, ada).await;
    assert_eq!(released.refresh_lease_until, None);
    assert_eq!(
        released.tokens.access_token, grant.tokens.access_token,
        "the tokens stay"
    );
    assert_eq!(repo.claim_refresh(claim(&grant, now())).await, Ok(true));
}

pub async fn a_late_release_leaves_the_lease_another_caller_took_once_it_ran_out(
    repo: Arc<dyn Repository>,
) {
    let (ada, grant) = github_grant(&*repo).await;
    let first = claim(&grant, now());
    assert_eq!(repo.claim_refresh(first.clone()).await, Ok(true));
    // The first caller's lease runs out; a second caller takes the refresh over.
    let second = claim(&grant, first.until + Duration::seconds(1));
    assert_eq!(repo.claim_refresh(second.clone()).await, Ok(true));
    // The first caller's failure is told late: the second caller's lease stays.
    repo.release_refresh(release(&first)).await.unwrap();
    let leased = github_grant_of(&*repo, ada).await;
    assert_eq!(leased.refresh_lease_until, Some(second.until));
    let third = claim(&grant, second.now + Duration::seconds(1));
    assert_eq!(
        repo.claim_refresh(third).await,
        Ok(false),
        "one refresh at a time"
    );
    repo.release_refresh(release(&second)).await.unwrap();
    assert_eq!(github_grant_of(&*repo, ada).await.refresh_lease_until, None);
}

pub async fn a_refused_grant_loses_its_tokens_with_its_lease_unless_they_changed(
    repo: Arc<dyn Repository>,
) {
    let (ada, first) = github_grant(&*repo).await;
    // Scopes granted, so that their loss shows.
    let mut scoped = refresh(ada, &first, "k1:scoped", Some("k1:refresh"));
    scoped.renewal.tokens.scopes = Scopes::from_stored("repo read:user".into());
    assert_eq!(repo.store_refresh(scoped).await, Ok(true));
    let grant = github_grant_of(&*repo, ada).await;
    assert_eq!(repo.claim_refresh(claim(&grant, now())).await, Ok(true));
    let leased = github_grant_of(&*repo, ada).await;
    let events = repo.list_events(ada, 10).await.unwrap();

    let mut changed = refusal(ada, &grant);
    changed.seen = SealedToken::new("k1:another");
    assert_eq!(repo.store_refusal(changed).await, Ok(false));
    let kept = github_grant_of(&*repo, ada).await;
    assert_eq!(kept, leased, "nothing changes, the lease included");
    assert_eq!(
        repo.list_events(ada, 10).await.unwrap(),
        events,
        "nothing recorded"
    );

    assert_eq!(repo.store_refusal(refusal(ada, &grant)).await, Ok(true));
    let forgotten = github_grant_of(&*repo, ada).await;
    assert_eq!(
        forgotten.tokens,
        SealedTokens::none(),
        "every token column goes"
    );
    assert_eq!(forgotten.refresh_lease_until, None);
    assert_eq!(forgotten.link, grant.link, "the link stays");
    // The event is written with the tokens' loss, in the same transaction.
    let recorded = repo.list_events(ada, 10).await.unwrap();
    assert_eq!(recorded.len(), events.len() + 1);
    assert_eq!(
        recorded[0].kind,
        AuditEventType::ProviderReauthorizationRequired
    );
}

/// The lease `claim` took, given back after a failure.
fn release(claim: &RefreshClaim) -> LeaseRelease {
    LeaseRelease {
        link: claim.link,
        seen: claim.seen.clone(),
        until: claim.until,
    }
}

/// The provider's refusal to refresh `grant`.
fn refusal(user: UserId, grant: &LinkGrant) -> RefusedGrant {
    RefusedGrant {
        user,
        provider: ProviderKey::GITHUB,
        link: grant.link,
        seen: grant.tokens.access_token.clone(),
        audit: crate::audit_now(),
    }
}
