//! The offers standing in a game, kept in the store so that any server
//! answers them (several servers on one database): a draw offer (the sides
//! that agree, the one that offered first) and a take-back request (by
//! which side, at how many events). Written `draw:0,1;takeback:1@12`
//! (either part alone; no offer, nothing), with no space: the store's feed
//! carries it as one word.

use super::refusal::Refusal;
use super::registry::Games;
use super::room::{Room, TakebackAsk};

impl Room {
    /// The offers standing, as stored (`None`: none).
    pub(super) fn offers_text(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.draw.is_empty() {
            let sides: Vec<String> = self.draw.iter().map(usize::to_string).collect();
            parts.push(format!("draw:{}", sides.join(",")));
        }
        if let Some(t) = self.takeback {
            parts.push(format!("takeback:{}@{}", t.by, t.ply));
        }
        (!parts.is_empty()).then(|| parts.join(";"))
    }

    /// Takes up the offers stored as `text`; what does not read, or names
    /// no side of this game, is left out (an offer is never worth refusing
    /// to load a game for).
    pub(super) fn read_offers(&mut self, text: &str) {
        let sides = self.game.sides().len();
        let side = |s: &str| s.parse::<usize>().ok().filter(|&s| s < sides);
        for part in text.split(';') {
            match part.split_once(':') {
                Some(("draw", list)) => {
                    self.draw = list.split(',').filter_map(side).collect();
                    self.draw.dedup();
                }
                Some(("takeback", ask)) => {
                    self.takeback = ask
                        .split_once('@')
                        .and_then(|(by, ply)| Some(TakebackAsk { by: side(by)?, ply: ply.parse().ok()? }));
                }
                _ => {}
            }
        }
    }
}

impl Games {
    /// Stores the offers standing in `room` now; if the store refuses (the
    /// game changed on another server), the room's offers go back to
    /// `before` and the room follows the store.
    pub(super) async fn store_offers(
        &self,
        room: &mut Room,
        before: (Vec<usize>, Option<TakebackAsk>),
    ) -> Result<(), Refusal> {
        let (id, plies, offers) = (room.meta.id.clone(), room.game.ply(), room.offers_text());
        if let Err(e) = self.blocking(move |s| s.set_offers(&id, plies, offers.as_deref())).await {
            (room.draw, room.takeback) = before;
            if e.status == 409 {
                self.reload_later(&room.meta.id);
            }
            return Err(e);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn offers_read_back_as_written() {
        use super::super::request::Mode;
        use super::super::room::{Room, TakebackAsk};
        use crate::live_game::LiveGame;
        let game = LiveGame::new(raum_rules::GameId::from_name("five-up").unwrap(), None).unwrap();
        let meta = crate::store::GameMeta {
            id: "g".into(),
            variant: "five-up".into(),
            mode: "online".into(),
            start: String::new(),
            white: "W".into(),
            black: "B".into(),
            white_token: None,
            black_token: None,
            engine: None,
            clock: None,
            seats: None,
            created: 0,
            rematch: None,
            offers: None,
        };
        let mut room = Room::open(meta, Mode::Online, game, Vec::new(), None);
        assert_eq!(room.offers_text(), None);
        for text in ["draw:1", "takeback:0@3", "draw:1,0;takeback:1@12"] {
            room.draw.clear();
            room.takeback = None;
            room.read_offers(text);
            assert_eq!(room.offers_text().as_deref(), Some(text));
        }
        assert_eq!(room.takeback, Some(TakebackAsk { by: 1, ply: 12 }));
        room.draw.clear();
        room.takeback = None;
        room.read_offers("draw:7,x;takeback:2@1;what:ever");
        assert_eq!(room.offers_text(), None, "sides a game of two lacks are left out");
    }
}
