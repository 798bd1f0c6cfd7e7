//! The repository ports' contract: users, links, the login's one transaction, the
//! last-login-method rule, refresh-token sessions, provider signals and the operator's
//! searches, locks and unlinks. The rules a caller relies on; an adapter that breaks one
//! breaks the service.

pub mod fixtures;

mod admin;
mod audit;
mod deletion;
mod disconnect;
mod links;
mod outbox;
mod refresh;
mod relay;
mod sessions;
mod sign_in;
mod signal_receipts;
mod signals;
mod signup;
mod users;

pub use admin::*;
pub use audit::*;
pub use deletion::*;
pub use disconnect::*;
pub use links::*;
pub use outbox::*;
pub use refresh::*;
pub use relay::*;
pub use sessions::*;
pub use sign_in::*;
pub use signal_receipts::*;
pub use signals::*;
pub use signup::*;
pub use users::*;

pub use social_login_ports::Repository;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// One rule of the contract, run on the repository it is given.
pub type Rule = fn(Arc<dyn Repository>) -> Pin<Box<dyn Future<Output = ()> + Send>>;

/// One `#[tokio::test]` per rule of the repository contract. `$harness` is an async function
/// taking a [`Rule`]; it runs the rule on a fresh repository of its choosing (or on several,
/// one after another).
#[macro_export]
macro_rules! repository_contract {
    ($harness:path) => {
        $crate::contract_tests!(repository, dyn $crate::contract::repository::Repository, $harness;
            a_user_created_with_a_link_is_found_by_id_email_and_link,
            a_user_is_stored_with_its_lock_as_given,
            unknown_users_links_and_emails_are_none,
            creating_a_user_whose_first_link_is_taken_leaves_no_user,
            a_registration_writes_its_user_with_its_first_session_or_neither,
            emails_are_unique_ignoring_case,
            any_number_of_users_may_have_no_email,
            a_first_link_for_another_user_is_rejected_before_touching_the_database,
            an_unverified_provider_email_is_kept_but_claims_nothing,
            a_provider_account_links_to_only_one_user,
            a_user_links_each_provider_once,
            a_renewed_link_keeps_its_new_tokens_and_a_removed_one_renews_nothing,
            linking_to_a_missing_user_is_user_not_found,
            added_links_are_listed_oldest_first,
            removing_a_provider_that_is_not_linked_is_not_linked,
            removing_a_link_of_an_unknown_user_is_not_linked,
            the_last_link_of_a_user_without_password_stays,
            the_only_link_goes_when_the_user_has_a_password,
            one_of_two_links_goes_and_the_other_stays,
            two_concurrent_removals_of_a_users_two_links_leave_exactly_one,
            rotation_returns_the_user_and_its_successor_rotates_in_turn,
            a_rotated_token_presented_again_revokes_its_whole_family,
            an_expired_token_is_refused_and_stays_unused,
            an_unknown_token_is_refused,
            of_two_concurrent_rotations_of_one_token_exactly_one_wins,
            a_proving_token_loses_its_row_when_rotated_and_its_replay_still_revokes_its_family,
            a_proving_token_replayed_past_its_expiry_is_refused_and_revokes_nothing,
            of_two_concurrent_rotations_of_one_proving_token_exactly_one_wins,
            logging_out_with_a_spent_proving_token_ends_its_session,
            logout_revokes_the_family_of_the_presented_token,
            logging_out_with_an_unknown_token_is_not_an_error,
            a_family_ends_at_its_cap_however_often_it_was_rotated,
            reuse_detection_ends_a_chain_that_is_rotating_at_that_moment,
            logout_ends_a_chain_that_is_rotating_at_that_moment,
            pruning_deletes_ended_families_and_expired_tokens_and_keeps_live_ones,
            a_new_account_registers_a_user_with_its_link_and_session,
            a_matching_claimed_email_is_refused_and_nothing_is_written,
            with_auto_linking_a_verified_email_links_to_its_verified_owner,
            an_unverified_email_matches_nobody_and_claims_nothing,
            a_failure_after_the_user_is_written_leaves_no_user_and_no_link,
            each_write_records_its_event_and_the_list_is_newest_first,
            the_users_own_view_leaves_support_reads_out_before_its_limit,
            a_refused_write_records_no_event,
            a_provider_login_records_its_decision_then_the_login,
            reuse_detection_is_recorded_and_a_second_logout_is_not,
            the_outbox_holds_only_subscribed_types_and_hands_out_the_oldest_due_first,
            a_failed_event_waits_for_its_own_turn_while_the_others_go_out,
            a_claim_holds_an_event_until_its_lease_runs_out,
            of_concurrent_claims_each_event_goes_to_exactly_one,
            a_probe_takes_the_event_whose_turn_comes_first_even_before_it_is_due,
            a_dead_letter_is_kept_listed_and_never_claimed_until_redelivered,
            events_written_before_the_bound_become_dead_letters_unless_claimed,
            the_outbox_keeps_its_newest_pending_events_within_the_bound,
            every_dead_letter_is_redelivered_in_batches,
            a_redelivered_event_counts_its_age_from_its_redelivery,
            rows_of_events_written_before_the_bound_are_forgotten,
            one_probe_turn_is_taken_per_period_however_many_ask_at_once,
            dead_letters_beyond_the_bound_are_forgotten_the_first_to_die_first,
            an_attempt_that_outlived_its_claim_changes_nothing_the_next_claimant_holds,
            a_full_outbox_never_pushes_out_a_deletion_or_a_lock,
            deleting_a_user_takes_its_links_and_sessions_and_hands_back_its_grants,
            deleting_an_unknown_user_is_none_and_records_nothing,
            removing_a_link_hands_back_its_sealed_grant,
            pruning_deletes_only_events_older_than_the_bound,
            pruning_keeps_the_events_the_webhook_outbox_still_holds,
            every_rotation_keeps_the_auth_time_of_the_login_that_started_the_session,
            a_sign_in_that_brings_no_provider_token_keeps_the_stored_ones,
            the_client_a_grant_was_issued_to_goes_and_stays_with_its_tokens,
            an_unverified_email_equal_to_a_held_address_is_refused_even_with_auto_linking,
            emails_match_ignoring_ascii_case_only,
            consent_revoked_ends_only_the_sessions_its_provider_began_and_forgets_its_tokens,
            a_signal_acts_once_and_its_repeat_writes_nothing,
            a_signal_about_an_account_linked_to_nobody_keeps_nothing,
            tokens_revoked_forgets_the_tokens_and_keeps_the_link_and_its_sessions,
            removing_the_last_way_in_deletes_the_user_with_user_deleted,
            removing_a_link_that_is_not_the_last_keeps_the_user_and_its_other_sessions,
            a_link_its_provider_removes_takes_the_profile_the_user_registered_with_through_it,
            a_disabled_account_signs_nobody_in_until_it_is_enabled,
            an_older_state_change_arriving_late_changes_nothing,
            a_kept_receipt_is_found_and_keeping_it_again_keeps_the_first_time,
            pruning_receipts_deletes_only_those_received_before_the_bound,
            of_concurrent_deliveries_of_one_signal_exactly_one_acts,
            a_payload_that_acted_at_one_endpoint_acts_at_no_other,
            of_one_payload_posted_to_both_endpoints_at_once_exactly_one_acts,
            a_sign_up_the_policy_refuses_writes_nothing,
            a_closed_provider_still_signs_in_its_accounts_and_auto_links,
            a_domain_list_admits_only_new_users_of_its_domains,
            pages_go_by_id_and_each_filter_finds_its_users,
            a_lock_refuses_logins_and_refreshes_ends_sessions_and_unlock_gives_back_logins,
            a_locked_user_is_not_signed_in_by_an_email_match_and_nothing_is_written,
            ending_sessions_leaves_the_user_unlocked,
            the_last_way_in_goes_only_by_force_which_locks_in_the_same_transaction,
            an_unlink_ends_the_sessions_its_link_began_and_a_users_own_disconnect_none,
            a_grant_is_the_users_link_of_that_provider_with_its_sealed_tokens,
            a_login_stores_when_its_access_token_expires,
            one_caller_holds_a_refresh_lease_until_it_lapses_or_the_tokens_change,
            of_concurrent_claims_on_one_grant_exactly_one_wins,
            a_refresh_is_stored_only_over_the_token_it_began_from_and_ends_the_lease,
            a_released_lease_frees_the_grant_at_once,
            a_late_release_leaves_the_lease_another_caller_took_once_it_ran_out,
            a_refused_grant_loses_its_tokens_with_its_lease_unless_they_changed,
            how_an_event_came_about_is_kept_with_it,
            a_users_live_sessions_are_listed_newest_use_first_and_only_theirs,
            a_listing_reads_only_the_newest_sessions_of_a_user_who_has_very_many,
            a_user_ends_only_a_live_session_of_their_own_and_its_tokens_stop,
            a_session_is_found_by_its_id_and_is_live_only_for_its_user_until_it_ends,
        );
    };
}

/// One `#[tokio::test]` per rule of a contract, for the macros of each port's contract:
/// every `$rule` is an async function of `contract::$module` taking an `Arc<$port>`, handed
/// to `$harness` boxed, which runs it on a fresh adapter.
#[doc(hidden)]
#[macro_export]
macro_rules! contract_tests {
    ($module:ident, $port:ty, $harness:path; $($rule:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $rule() {
                fn rule(
                    adapter: ::std::sync::Arc<$port>,
                ) -> ::std::pin::Pin<::std::boxed::Box<dyn ::std::future::Future<Output = ()> + Send>>
                {
                    ::std::boxed::Box::pin($crate::contract::$module::$rule(adapter))
                }
                $harness(rule).await;
            }
        )*
    };
}
