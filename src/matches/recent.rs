//! A match's recent past, kept by its actor so that resumes (and the `/log` of a young
//! match) are answered from memory instead of by replaying the whole durable log.
//!
//! Memory stays bounded: one extra state and at most [`RECENT_EVENTS`] events. Older events
//! are folded into the base state as new ones arrive, so a client that was away for longer
//! than that (and the `/log` of an older match) is served from the stored log by
//! [`from_log`], which folds the logged events without re-running the engine.

use crate::record::{EntryKind, LogEntry};
use crate::rules::{Game, Viewer};
use serde::Deserialize;
use serde_json::Value;
use std::collections::VecDeque;

/// Events kept per live match: about two overs of CTG (eleven events a ball), some three
/// minutes of human play, enough for a dropped connection or a phone that slept. A CTG event
/// is 28 bytes (40 with its seq), so this is about 5 KiB per playing match, beside the 75 KiB
/// a playing match with its two sockets takes (docs/performance.md).
pub const RECENT_EVENTS: usize = 128;

/// A viewer's view after some entry, and the events after it that the viewer may see.
#[derive(Debug, PartialEq)]
pub struct History<E> {
    pub view: Value,
    pub events: Vec<(i64, E)>,
}

/// The viewer's view after entry `from` and the events after it that it may see, from a
/// live match's stored log and the state before its start.
///
/// The events are folded as logged, with [`Game::apply`]: no command is re-decided and
/// no die re-rolled. That is exact for the actor that asks, because every entry of its
/// log was either verified by [`crate::fairness::replay`] when it rebuilt the match or
/// written by itself after deciding it (writes are fenced, so no other node's are in
/// it); the replay would fold the very same events into the very same states.
pub fn from_log<G: Game>(
    initial: G::State,
    log: &[LogEntry],
    viewer: Viewer,
    from: i64,
) -> Result<History<G::Event>, serde_json::Error> {
    let mut state = initial;
    let mut view = None;
    let mut visible = Vec::new();
    for entry in log.iter().filter(|entry| entry.kind == EntryKind::Event) {
        if entry.seq > from && view.is_none() {
            view = Some(serde_json::to_value(G::view(&state, viewer))?);
        }
        let event = G::Event::deserialize(&entry.payload)?;
        G::apply(&mut state, &event);
        if entry.seq > from
            && let Some(event) = G::redact(&state, &event, viewer)
        {
            visible.push((entry.seq, event));
        }
    }
    let view = match view {
        Some(view) => view,
        None => serde_json::to_value(G::view(&state, viewer))?,
    };
    Ok(History {
        view,
        events: visible,
    })
}

/// The state after log entry `base_seq`, and the events logged after it, in seq order.
pub struct Recent<G: Game> {
    base: G::State,
    base_seq: i64,
    events: VecDeque<(i64, G::Event)>,
    capacity: usize,
}

impl<G: Game> Recent<G> {
    /// The recent past of a match whose state after entry `last_seq` is `state`.
    pub fn new(state: G::State, last_seq: i64) -> Self {
        Recent::with_capacity(state, last_seq, RECENT_EVENTS)
    }

    pub fn with_capacity(state: G::State, last_seq: i64, capacity: usize) -> Self {
        Recent {
            base: state,
            base_seq: last_seq,
            events: VecDeque::new(),
            capacity,
        }
    }

    /// The recent past of a match rebuilt from its log (a restart, a takeover, a rebuild
    /// after a fenced write): the log's last events, so that a socket resuming right after
    /// the rebuild still gets the events it missed. A spectator's resume is served from here
    /// only (see `subscribe`), so an empty past would hand it a snapshot that skips them.
    /// The events are folded as logged, as [`from_log`] does.
    pub fn from_log(initial: G::State, log: &[LogEntry]) -> Result<Self, serde_json::Error> {
        let mut recent = Recent::new(initial, 0);
        for entry in log.iter().filter(|entry| entry.kind == EntryKind::Event) {
            let event = G::Event::deserialize(&entry.payload)?;
            recent.push(entry.seq, std::slice::from_ref(&event));
        }
        Ok(recent)
    }

    /// Records events just made durable, numbered from `first_seq`; folds the oldest into the
    /// base past the capacity.
    pub fn push(&mut self, first_seq: i64, events: &[G::Event]) {
        for (offset, event) in events.iter().enumerate() {
            self.events.push_back((first_seq + offset as i64, event.clone()));
        }
        while self.events.len() > self.capacity {
            if let Some((seq, event)) = self.events.pop_front() {
                G::apply(&mut self.base, &event);
                self.base_seq = seq;
            }
        }
    }

    /// The viewer's view after entry `from` and the events after it that it may see, as the
    /// log's replay would give them; `None` when `from` is older than what is kept.
    pub fn since(&self, viewer: Viewer, from: i64) -> Option<History<G::Event>> {
        if from < self.base_seq {
            return None;
        }
        let mut state = self.base.clone();
        let mut view = None;
        let mut visible = Vec::new();
        for (seq, event) in &self.events {
            if *seq > from && view.is_none() {
                view = Some(serde_json::to_value(G::view(&state, viewer)).ok()?);
            }
            G::apply(&mut state, event);
            if *seq > from
                && let Some(event) = G::redact(&state, event, viewer)
            {
                visible.push((*seq, event));
            }
        }
        let view = match view {
            Some(view) => view,
            None => serde_json::to_value(G::view(&state, viewer)).ok()?,
        };
        Some(History {
            view,
            events: visible,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ctg::{Ctg, Options, bot, engine, view};
    use crate::rules::{BotPolicy, Dice, Seat, Seed};

    /// What the log's replay gives: fold every event from the start.
    fn from_the_start(
        initial: &<Ctg as Game>::State,
        log: &[(i64, <Ctg as Game>::Event)],
        viewer: Viewer,
        from: i64,
    ) -> (Value, Vec<(i64, <Ctg as Game>::Event)>) {
        let mut state = initial.clone();
        for (_, event) in log.iter().filter(|(seq, _)| *seq <= from) {
            Ctg::apply(&mut state, event);
        }
        let view = serde_json::to_value(Ctg::view(&state, viewer)).expect("a view");
        let mut visible = Vec::new();
        for (seq, event) in log.iter().filter(|(seq, _)| *seq > from) {
            Ctg::apply(&mut state, event);
            visible.extend(Ctg::redact(&state, event, viewer).map(|event| (*seq, event)));
        }
        (view, visible)
    }

    /// Over the first 400 events of a CTG match (each command's entry taking a seq too, as in
    /// the log), with a window of 60: every `from` the window reaches is answered exactly as a
    /// fold from the start answers it, for every viewer, and an older one is not answered.
    #[test]
    fn the_recent_past_answers_as_the_whole_log_does() {
        let initial = Ctg::initial_state(&Options::default()).expect("options");
        let mut state = initial.clone();
        let mut recent = Recent::<Ctg>::with_capacity(initial.clone(), 0, 60);
        let (mut dice, mut bots) = (Dice::new(&Seed::from_u64(3)), Dice::new(&Seed::from_u64(4)));
        let mut log = Vec::new();
        let mut events = Vec::new();
        engine::start(&mut state, &mut events);
        let mut next_seq = 1;
        loop {
            recent.push(next_seq, &events);
            log.extend(
                events
                    .drain(..)
                    .enumerate()
                    .map(|(at, event)| (next_seq + at as i64, event)),
            );
            next_seq = log.last().map_or(1, |(seq, _)| seq + 1) + 1;
            if log.len() >= 400 || Ctg::outcome(&state).is_some() {
                break;
            }
            let seat = Seat(state.pending_mask().trailing_zeros() as u8);
            let ask = view::ask(&state, seat).expect("asked");
            let command = bot::choose(&ask, &view::situation(&state, seat), BotPolicy::Random, &mut bots);
            engine::execute(&mut state, seat, &command, &mut dice, &mut events).expect("legal");
        }
        let last = log.last().expect("events").0;
        assert!(recent.base_seq > 0, "the window moved: {}", recent.base_seq);
        assert_eq!(recent.events.len(), 60);
        for viewer in [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1)), Viewer::Spectator] {
            for from in recent.base_seq..=last {
                let kept = recent.since(viewer, from).expect("inside the window");
                let (view, visible) = from_the_start(&initial, &log, viewer, from);
                assert_eq!(kept.view, view, "the view after {from}");
                assert_eq!(kept.events, visible, "the events after {from}");
            }
            assert!(recent.since(viewer, recent.base_seq - 1).is_none());
        }
    }

    /// A CTG match's first `events` log entries as its actor logs them (random-policy bots
    /// drawing from seed 9).
    fn logged_match(options: &Options, seed: &Seed, events: usize) -> Vec<LogEntry> {
        crate::fairness::bot_log::<Ctg>(options, seed, &Seed::from_u64(9), BotPolicy::Random, events)
    }

    /// What a history read answered before it folded the stored events: the view after the
    /// last event at or before `from` and the redacted events after it, both taken from
    /// `fairness::replay`, which re-runs every command through the engine.
    fn replayed(options: &Options, seed: &Seed, log: &[LogEntry], viewer: Viewer, from: i64) -> String {
        let last_before = log
            .iter()
            .filter(|entry| entry.kind == EntryKind::Event && entry.seq <= from)
            .map(|entry| entry.seq)
            .next_back();
        let initial = crate::rules::MatchCore::<Ctg>::new(options, seed).expect("options");
        let mut view = last_before
            .is_none()
            .then(|| serde_json::to_value(Ctg::view(&initial.state, viewer)).expect("a view"));
        let mut visible = Vec::new();
        crate::fairness::replay::<Ctg>(options, seed, log, |state, seq, event| {
            if Some(seq) == last_before {
                view = Some(serde_json::to_value(Ctg::view(state, viewer)).expect("a view"));
            }
            if seq > from
                && let Some(event) = Ctg::redact(state, event, viewer)
            {
                visible.push((seq, event));
            }
        })
        .expect("the log replays");
        serde_json::to_string(&(view.expect("a view"), visible)).expect("json")
    }

    /// Folding the stored events answers, byte for byte, what replaying the log through the
    /// engine answered, for each viewer and from the start (a live `/log`), the middle and
    /// the end of a match far longer than the recent past.
    #[test]
    fn the_stored_events_folded_answer_as_the_replay_did() {
        let (options, seed) = (Options::default(), Seed::from_u64(11));
        let log = logged_match(&options, &seed, 6 * RECENT_EVENTS);
        let last = log.last().expect("entries").seq;
        assert!(last as usize >= 6 * RECENT_EVENTS, "{last}");
        for viewer in [Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1)), Viewer::Spectator] {
            for from in [0, 1, last / 3, last / 2 + 1, last - 1, last] {
                let initial = Ctg::initial_state(&options).expect("options");
                let folded = from_log::<Ctg>(initial, &log, viewer, from).expect("folds");
                let folded = serde_json::to_string(&(folded.view, folded.events)).expect("json");
                assert_eq!(
                    folded,
                    replayed(&options, &seed, &log, viewer, from),
                    "{viewer:?} from {from}"
                );
            }
        }
    }

    /// A match rebuilt from a log far longer than the recent past keeps the log's last
    /// [`RECENT_EVENTS`] events: a resume from any of them (a spectator's too) is answered
    /// exactly as folding the whole log answers it, and one from before them is not.
    #[test]
    fn a_match_rebuilt_from_its_log_keeps_the_logs_last_events() {
        let (options, seed) = (Options::default(), Seed::from_u64(12));
        let log = logged_match(&options, &seed, 3 * RECENT_EVENTS);
        let initial = crate::rules::MatchCore::<Ctg>::new(&options, &seed)
            .expect("options")
            .state;
        let recent = Recent::<Ctg>::from_log(initial.clone(), &log).expect("the log reads");
        assert_eq!(recent.events.len(), RECENT_EVENTS);
        let last = log.last().expect("entries").seq;
        let first_kept = recent.events.front().expect("events").0;
        for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
            for from in [first_kept - 1, first_kept + 7, last - 1] {
                let kept = recent.since(viewer, from).expect("inside the window");
                let whole = from_log::<Ctg>(initial.clone(), &log, viewer, from).expect("folds");
                assert_eq!(kept, whole, "{viewer:?} from {from}");
                assert!(!kept.events.is_empty(), "{viewer:?} from {from} gets events");
            }
            assert!(recent.since(viewer, recent.base_seq - 1).is_none());
        }
    }
}
