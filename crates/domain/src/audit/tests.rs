use super::*;

#[test]
fn a_user_sees_their_own_address_and_never_the_operators() {
    let ip: IpAddr = "198.51.100.4".parse().unwrap();
    let mine = Origin::new(Some(ip), None, None);
    assert_eq!(mine.ip_shown_to_user(), Some(ip));
    let support = mine.by_admin(AdminKeyId::of_digest(&[7; 32]));
    assert_eq!(support.ip_shown_to_user(), None);
    assert_eq!(support.ip, Some(ip), "kept for the operator's own audit");
}

#[test]
fn every_type_round_trips_through_its_contract_name() {
    for kind in AuditEventType::ALL {
        assert_eq!(kind.as_str().parse::<AuditEventType>(), Ok(kind));
    }
    assert_eq!(
        "user.Login".parse::<AuditEventType>(),
        Err(UnknownEventType)
    );
}

#[test]
fn an_event_set_holds_exactly_what_it_was_built_from() {
    let set: EventSet = [AuditEventType::UserLogin, AuditEventType::UserDeleted]
        .into_iter()
        .collect();
    for kind in AuditEventType::ALL {
        let expected = matches!(
            kind,
            AuditEventType::UserLogin | AuditEventType::UserDeleted
        );
        assert_eq!(set.contains(kind), expected, "{kind}");
        assert!(EventSet::all().contains(kind));
        assert!(!EventSet::NONE.contains(kind));
    }
    assert!(EventSet::NONE.is_empty() && !set.is_empty());
}

#[test]
fn event_ids_sort_by_time_below_the_millisecond() {
    let start = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    let mut previous = AuditEventId::at(start, [0xFF; 8]);
    for micros in 1..2_000 {
        let next = AuditEventId::at(start + time::Duration::microseconds(micros), [0; 8]);
        assert!(next > previous, "{micros} µs");
        previous = next;
    }
}

#[test]
fn an_origin_keeps_bounded_printable_text_only() {
    let long = "a".repeat(1_000);
    let origin = Origin::new(None, Some(&format!("Mozilla\r\n{long}")), Some(" \u{7} "));
    let agent = origin.user_agent().unwrap();
    assert!(agent.starts_with("Mozillaaaa"));
    assert_eq!(agent.chars().count(), MAX_USER_AGENT_CHARS);
    assert_eq!(origin.request_id(), None, "nothing printable is nothing");
}

#[test]
fn clean_text_is_cut_at_the_bound_on_a_character_and_trimmed() {
    let long = "é".repeat(1_000);
    let origin = Origin::new(None, Some(&format!("  {long}")), Some(" req-1 "));
    let agent = origin.user_agent().unwrap();
    assert_eq!(agent.chars().count(), MAX_USER_AGENT_CHARS - 2);
    assert!(agent.chars().all(|c| c == 'é'), "{agent}");
    assert_eq!(origin.request_id(), Some("req-1"));
    assert_eq!(Origin::new(None, Some("   "), None).user_agent(), None);
}
