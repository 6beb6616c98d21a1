//! Where a match stands with adjourning by agreement, folded from its `adjournment` log
//! entries, and what a seat's request would write: pure, so it is tested without a match.
//! The actor's side (writing the steps, stopping and restarting the clocks, resuming) is
//! [`adjourn`](super::adjourn).

use crate::protocol::{AdjournAsk, AdjournmentState, AdjournmentView, CommandError};
use crate::record::{AdjournmentAction, AdjournmentRecord, EntryKind, LogEntry};
use crate::rules::Seat;
use chrono::{DateTime, Utc};
use std::time::Duration;

/// Log entries a seat whose offer was declined waits before it may offer again: an offer is a
/// log entry, and a player must not be able to flood the other with them.
pub(super) const OFFER_COOLDOWN_ENTRIES: i64 = 12;

/// Where the match stands.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Standing {
    Playing,
    Offered {
        by: Seat,
        resume_at: Option<DateTime<Utc>>,
        /// Seats that have accepted so far (in games of more than two seats).
        accepted: Vec<Seat>,
    },
    Adjourned {
        since: DateTime<Utc>,
        resume_at: Option<DateTime<Utc>>,
    },
}

/// The adjournment of one match, folded from its `adjournment` entries.
#[derive(Clone, Debug)]
pub(super) struct Adjournment {
    pub(super) standing: Standing,
    /// The last step and who took it, for the viewers.
    last: Option<(AdjournmentAction, Option<Seat>)>,
    /// Per seat, the seq of the entry that declined its last offer.
    declined_at: Vec<Option<i64>>,
    seat_count: usize,
}

/// What a request is decided against besides where the match stands.
#[derive(Clone, Copy, Debug)]
pub(super) struct Moment<'a> {
    /// The seats the server plays: they accept an offer at once.
    pub bots: &'a [Seat],
    /// The seq the first entry written will take.
    pub next_seq: i64,
    pub now: DateTime<Utc>,
    /// How long an adjournment may last.
    pub expires: Duration,
}

/// Why an `adjourn` message is refused.
fn refuse(reason: &str, message: &str) -> CommandError {
    CommandError::AdjournRefused {
        reason: reason.to_string(),
        message: message.to_string(),
    }
}

impl Adjournment {
    pub(super) fn new(seat_count: usize) -> Self {
        Adjournment {
            standing: Standing::Playing,
            last: None,
            declined_at: vec![None; seat_count],
            seat_count,
        }
    }

    /// Where a logged match stands: its adjournment entries folded in order.
    pub(super) fn from_log(log: &[LogEntry], seat_count: usize) -> Result<Self, String> {
        let mut adjournment = Adjournment::new(seat_count);
        for entry in log.iter().filter(|entry| entry.kind == EntryKind::Adjournment) {
            let record: AdjournmentRecord = serde_json::from_value(entry.payload.clone())
                .map_err(|error| format!("entry {}: unreadable adjournment: {error}", entry.seq))?;
            adjournment.apply(&record, entry.at, entry.seq);
        }
        Ok(adjournment)
    }

    pub(super) fn is_adjourned(&self) -> bool {
        matches!(self.standing, Standing::Adjourned { .. })
    }

    /// Folds one step, written at `at` as entry `seq`.
    pub(super) fn apply(&mut self, record: &AdjournmentRecord, at: DateTime<Utc>, seq: i64) {
        self.last = Some((record.action, record.seat));
        self.standing = match (
            record.action,
            std::mem::replace(&mut self.standing, Standing::Playing),
        ) {
            (AdjournmentAction::Offered, _) => Standing::Offered {
                by: record.seat.unwrap_or(Seat(0)),
                resume_at: record.resume_at,
                accepted: Vec::new(),
            },
            (
                AdjournmentAction::Accepted,
                Standing::Offered {
                    by,
                    resume_at,
                    mut accepted,
                },
            ) => {
                accepted.extend(record.seat);
                Standing::Offered {
                    by,
                    resume_at,
                    accepted,
                }
            }
            (AdjournmentAction::Declined, Standing::Offered { by, .. }) => {
                if let Some(slot) = self.declined_at.get_mut(by.index()) {
                    *slot = Some(seq);
                }
                Standing::Playing
            }
            (AdjournmentAction::Agreed, _) => Standing::Adjourned {
                since: at,
                resume_at: record.resume_at,
            },
            // Withdrawn, resumed, or a step that does not follow from where the match stood
            // (never written by the actor): play on.
            _ => Standing::Playing,
        };
    }

    /// The entries `seat`'s request writes, or why it is refused, in the match's `moment`.
    pub(super) fn decide(
        &self,
        seat: Seat,
        ask: AdjournAsk,
        resume_at: Option<DateTime<Utc>>,
        moment: &Moment<'_>,
    ) -> Result<Vec<AdjournmentRecord>, CommandError> {
        let Moment {
            bots,
            next_seq,
            now,
            expires,
        } = *moment;
        let step = |action, seat: Option<Seat>, resume_at| AdjournmentRecord {
            action,
            seat,
            resume_at,
        };
        match (&self.standing, ask) {
            (Standing::Adjourned { .. }, _) => Err(refuse("adjourned", "the match is already adjourned")),
            (Standing::Playing, AdjournAsk::Offer) => {
                if let Some(declined) = self.declined_at.get(seat.index()).copied().flatten()
                    && next_seq <= declined + OFFER_COOLDOWN_ENTRIES
                {
                    return Err(refuse(
                        "too_soon",
                        "your last offer was declined a moment ago: play on a little first",
                    ));
                }
                if let Some(at) = resume_at {
                    if at <= now {
                        return Err(refuse("resume_at_past", "the time to resume has passed"));
                    }
                    if at - now > chrono::Duration::from_std(expires).unwrap_or(chrono::TimeDelta::MAX) {
                        return Err(refuse(
                            "resume_at_late",
                            "the time to resume is later than an adjournment may last",
                        ));
                    }
                }
                let mut steps = vec![step(AdjournmentAction::Offered, Some(seat), resume_at)];
                let others: Vec<Seat> = self.others(seat).collect();
                let (bots, players): (Vec<Seat>, Vec<Seat>) =
                    others.into_iter().partition(|s| bots.contains(s));
                if players.is_empty() {
                    // Only the server's bots to ask: they agree in the same write.
                    let (last, first) = bots.split_last().map_or((None, &[][..]), |(l, f)| (Some(*l), f));
                    steps.extend(
                        first
                            .iter()
                            .map(|bot| step(AdjournmentAction::Accepted, Some(*bot), None)),
                    );
                    steps.push(step(AdjournmentAction::Agreed, last, resume_at));
                } else {
                    steps.extend(
                        bots.iter()
                            .map(|bot| step(AdjournmentAction::Accepted, Some(*bot), None)),
                    );
                }
                Ok(steps)
            }
            (Standing::Playing, _) => Err(refuse("no_offer", "no offer to adjourn is pending")),
            (Standing::Offered { by, .. }, AdjournAsk::Offer) if *by == seat => Err(refuse(
                "already_offered",
                "your offer to adjourn is already pending",
            )),
            // Offering while another seat's offer stands is accepting it.
            (
                Standing::Offered {
                    by,
                    resume_at,
                    accepted,
                },
                AdjournAsk::Offer | AdjournAsk::Accept,
            ) => {
                if *by == seat {
                    return Err(refuse("own_offer", "you cannot accept your own offer"));
                }
                if accepted.contains(&seat) {
                    return Err(refuse("already_offered", "you have already accepted"));
                }
                let still_waiting = self
                    .others(*by)
                    .filter(|other| *other != seat && !accepted.contains(other))
                    .count();
                let action = if still_waiting == 0 {
                    AdjournmentAction::Agreed
                } else {
                    AdjournmentAction::Accepted
                };
                Ok(vec![step(action, Some(seat), *resume_at)])
            }
            (Standing::Offered { by, .. }, AdjournAsk::Decline) if *by == seat => Err(refuse(
                "own_offer",
                "you cannot decline your own offer: withdraw it",
            )),
            (Standing::Offered { .. }, AdjournAsk::Decline) => {
                Ok(vec![step(AdjournmentAction::Declined, Some(seat), None)])
            }
            (Standing::Offered { by, .. }, AdjournAsk::Withdraw) if *by == seat => {
                Ok(vec![step(AdjournmentAction::Withdrawn, Some(seat), None)])
            }
            (Standing::Offered { .. }, AdjournAsk::Withdraw) => Err(refuse(
                "no_offer",
                "only the seat that offered can withdraw the offer",
            )),
        }
    }

    fn others(&self, seat: Seat) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seat_count as u8)
            .map(Seat)
            .filter(move |other| *other != seat)
    }

    /// When an adjourned match resumes by itself (the agreed time) or ends (the limit),
    /// whichever comes first, and which.
    pub(super) fn next_turn(&self, expires: Duration) -> Option<(DateTime<Utc>, Wake)> {
        let Standing::Adjourned { since, resume_at } = &self.standing else {
            return None;
        };
        let expiry = *since + chrono::Duration::from_std(expires).unwrap_or(chrono::TimeDelta::MAX);
        match resume_at {
            Some(at) if *at < expiry => Some((*at, Wake::Resume)),
            _ => Some((expiry, Wake::Expire)),
        }
    }

    /// What every viewer is told; `None` while played with no offer pending and nothing
    /// has happened yet (a snapshot leaves it out).
    pub(super) fn view(&self, expires: Duration) -> Option<AdjournmentView> {
        let (action, seat) = self.last?;
        let mut view = AdjournmentView {
            state: AdjournmentState::Playing,
            action,
            seat,
            waiting_for: Vec::new(),
            resume_at: None,
            adjourned_at: None,
            expires_at: None,
        };
        match &self.standing {
            Standing::Playing => {}
            Standing::Offered {
                by,
                resume_at,
                accepted,
            } => {
                view.state = AdjournmentState::Offered;
                view.resume_at = *resume_at;
                view.waiting_for = self.others(*by).filter(|seat| !accepted.contains(seat)).collect();
            }
            Standing::Adjourned { since, resume_at } => {
                view.state = AdjournmentState::Adjourned;
                view.resume_at = *resume_at;
                view.adjourned_at = Some(*since);
                view.expires_at = chrono::Duration::from_std(expires)
                    .ok()
                    .map(|limit| *since + limit);
            }
        }
        Some(view)
    }

    /// The view for a snapshot: only an offer that stands, or the adjournment.
    pub(super) fn standing_view(&self, expires: Duration) -> Option<AdjournmentView> {
        self.view(expires)
            .filter(|view| view.state != AdjournmentState::Playing)
    }
}

/// What an adjourned match's clock does when it fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wake {
    Resume,
    Expire,
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: Duration = Duration::from_secs(86_400);

    fn at(hours: i64) -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + chrono::Duration::hours(hours)
    }

    fn decide(
        a: &Adjournment,
        seat: u8,
        ask: AdjournAsk,
        seq: i64,
    ) -> Result<Vec<AdjournmentRecord>, String> {
        a.decide(
            Seat(seat),
            ask,
            None,
            &Moment {
                bots: &[],
                next_seq: seq,
                now: at(0),
                expires: DAY,
            },
        )
        .map_err(|error| match error {
            CommandError::AdjournRefused { reason, .. } => reason,
            other => other.to_string(),
        })
    }

    /// Decides `seat`'s request and folds what it writes.
    fn act(a: &mut Adjournment, seat: u8, ask: AdjournAsk, seq: i64) {
        let steps = decide(a, seat, ask, seq).unwrap();
        fold(a, &steps, seq);
    }

    fn fold(a: &mut Adjournment, steps: &[AdjournmentRecord], seq: i64) {
        for (offset, step) in steps.iter().enumerate() {
            a.apply(step, at(1), seq + offset as i64);
        }
    }

    #[test]
    fn an_offer_accepted_adjourns_and_only_a_resumption_ends_it() {
        let mut a = Adjournment::new(2);
        let offer = decide(&a, 0, AdjournAsk::Offer, 10).unwrap();
        assert_eq!(offer.len(), 1);
        assert_eq!(offer[0].action, AdjournmentAction::Offered);
        fold(&mut a, &offer, 10);
        assert_eq!(
            decide(&a, 0, AdjournAsk::Offer, 11),
            Err("already_offered".into())
        );
        assert_eq!(decide(&a, 0, AdjournAsk::Accept, 11), Err("own_offer".into()));
        let accept = decide(&a, 1, AdjournAsk::Accept, 11).unwrap();
        assert_eq!(accept[0].action, AdjournmentAction::Agreed);
        fold(&mut a, &accept, 11);
        assert!(a.is_adjourned());
        assert_eq!(decide(&a, 1, AdjournAsk::Offer, 12), Err("adjourned".into()));
        let view = a.view(DAY).unwrap();
        assert_eq!(view.state, AdjournmentState::Adjourned);
        assert_eq!(view.adjourned_at, Some(at(1)));
        assert_eq!(view.expires_at, Some(at(25)));
        fold(
            &mut a,
            &[AdjournmentRecord {
                action: AdjournmentAction::Resumed,
                seat: None,
                resume_at: None,
            }],
            12,
        );
        assert!(!a.is_adjourned());
        assert_eq!(a.standing_view(DAY), None, "played again: nothing stands");
    }

    #[test]
    fn a_declined_offer_cannot_be_repeated_at_once() {
        let mut a = Adjournment::new(2);
        act(&mut a, 0, AdjournAsk::Offer, 10);
        assert_eq!(decide(&a, 0, AdjournAsk::Decline, 11), Err("own_offer".into()));
        act(&mut a, 1, AdjournAsk::Decline, 11);
        assert_eq!(a.standing, Standing::Playing);
        assert_eq!(decide(&a, 0, AdjournAsk::Offer, 12), Err("too_soon".into()));
        assert_eq!(
            decide(&a, 0, AdjournAsk::Offer, 11 + OFFER_COOLDOWN_ENTRIES),
            Err("too_soon".into())
        );
        assert!(decide(&a, 0, AdjournAsk::Offer, 12 + OFFER_COOLDOWN_ENTRIES).is_ok());
        // The other seat was not declined: it may offer at once.
        assert!(decide(&a, 1, AdjournAsk::Offer, 12).is_ok());
    }

    #[test]
    fn only_the_seat_that_offered_withdraws_and_nothing_is_answered_without_an_offer() {
        let mut a = Adjournment::new(2);
        for ask in [AdjournAsk::Accept, AdjournAsk::Decline, AdjournAsk::Withdraw] {
            assert_eq!(decide(&a, 1, ask, 5), Err("no_offer".into()));
        }
        act(&mut a, 0, AdjournAsk::Offer, 5);
        assert_eq!(decide(&a, 1, AdjournAsk::Withdraw, 6), Err("no_offer".into()));
        act(&mut a, 0, AdjournAsk::Withdraw, 6);
        assert_eq!(a.standing, Standing::Playing);
        // A withdrawal is no decline: no wait before the next offer.
        assert!(decide(&a, 0, AdjournAsk::Offer, 7).is_ok());
    }

    #[test]
    fn offering_while_the_other_seat_offers_accepts_its_offer_and_its_time() {
        let mut a = Adjournment::new(2);
        let offer = a
            .decide(
                Seat(1),
                AdjournAsk::Offer,
                Some(at(20)),
                &Moment {
                    bots: &[],
                    next_seq: 3,
                    now: at(0),
                    expires: DAY,
                },
            )
            .unwrap();
        fold(&mut a, &offer, 3);
        let answer = decide(&a, 0, AdjournAsk::Offer, 4).unwrap();
        assert_eq!(answer[0].action, AdjournmentAction::Agreed);
        assert_eq!(answer[0].resume_at, Some(at(20)));
    }

    #[test]
    fn a_bot_agrees_in_the_same_write_and_three_players_need_both_others() {
        let a = Adjournment::new(2);
        let steps = a
            .decide(
                Seat(0),
                AdjournAsk::Offer,
                None,
                &Moment {
                    bots: &[Seat(1)],
                    next_seq: 2,
                    now: at(0),
                    expires: DAY,
                },
            )
            .unwrap();
        let actions: Vec<_> = steps.iter().map(|step| (step.action, step.seat)).collect();
        assert_eq!(
            actions,
            [
                (AdjournmentAction::Offered, Some(Seat(0))),
                (AdjournmentAction::Agreed, Some(Seat(1)))
            ]
        );
        let mut three = Adjournment::new(3);
        act(&mut three, 0, AdjournAsk::Offer, 2);
        let first = decide(&three, 2, AdjournAsk::Accept, 3).unwrap();
        assert_eq!(first[0].action, AdjournmentAction::Accepted);
        fold(&mut three, &first, 3);
        assert_eq!(three.view(DAY).unwrap().waiting_for, [Seat(1)]);
        assert_eq!(
            decide(&three, 2, AdjournAsk::Accept, 4),
            Err("already_offered".into())
        );
        let last = decide(&three, 1, AdjournAsk::Accept, 4).unwrap();
        assert_eq!(last[0].action, AdjournmentAction::Agreed);
    }

    #[test]
    fn a_time_to_resume_must_be_ahead_and_within_the_limit_and_wakes_before_the_expiry() {
        let a = Adjournment::new(2);
        let offer = |hours| {
            a.decide(
                Seat(0),
                AdjournAsk::Offer,
                Some(at(hours)),
                &Moment {
                    bots: &[],
                    next_seq: 2,
                    now: at(10),
                    expires: DAY,
                },
            )
        };
        assert!(
            matches!(offer(9), Err(CommandError::AdjournRefused { reason, .. }) if reason == "resume_at_past")
        );
        assert!(
            matches!(offer(40), Err(CommandError::AdjournRefused { reason, .. }) if reason == "resume_at_late")
        );
        assert!(offer(20).is_ok());
        let mut b = Adjournment::new(2);
        b.apply(
            &AdjournmentRecord {
                action: AdjournmentAction::Agreed,
                seat: Some(Seat(1)),
                resume_at: Some(at(20)),
            },
            at(10),
            3,
        );
        assert_eq!(b.next_turn(DAY), Some((at(20), Wake::Resume)));
        let mut c = Adjournment::new(2);
        c.apply(
            &AdjournmentRecord {
                action: AdjournmentAction::Agreed,
                seat: Some(Seat(1)),
                resume_at: None,
            },
            at(10),
            3,
        );
        assert_eq!(c.next_turn(DAY), Some((at(34), Wake::Expire)));
    }

    #[test]
    fn a_log_folds_to_where_the_match_stood() {
        let entry = |seq, action, seat: Option<u8>| LogEntry {
            seq,
            at: at(seq),
            kind: EntryKind::Adjournment,
            payload: serde_json::to_value(AdjournmentRecord {
                action,
                seat: seat.map(Seat),
                resume_at: None,
            })
            .unwrap(),
        };
        let event = LogEntry {
            seq: 1,
            at: at(1),
            kind: EntryKind::Event,
            payload: serde_json::json!({"type": "started"}),
        };
        let log = vec![
            event,
            entry(2, AdjournmentAction::Offered, Some(0)),
            entry(3, AdjournmentAction::Agreed, Some(1)),
        ];
        let folded = Adjournment::from_log(&log, 2).unwrap();
        assert_eq!(
            folded.standing,
            Standing::Adjourned {
                since: at(3),
                resume_at: None
            }
        );
        let mut resumed = log.clone();
        resumed.push(entry(4, AdjournmentAction::Resumed, None));
        assert_eq!(
            Adjournment::from_log(&resumed, 2).unwrap().standing,
            Standing::Playing
        );
    }
}
