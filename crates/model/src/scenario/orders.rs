//! Validating `[[orders]]`: each is a line of the grammar of commands (`grammar.rs`).

use std::collections::HashMap;

use hexmap::Map;
use toml::Spanned;

use crate::command::{Command, OrderAction};
use crate::ids::UnitId;
use crate::scenario::Order;
use crate::scenario::grammar;
use crate::scenario::raw::{RawOrder, ScenarioFile};
use crate::scenario::validator::Validator;

impl Validator {
    /// Every order that reads.
    pub(super) fn orders(
        &mut self,
        file: &ScenarioFile,
        map: Option<&Map>,
        unit_ids: &HashMap<String, UnitId>,
        turns: u32,
    ) -> Vec<Order> {
        let v = self;
        let mut orders = Vec::new();
        for so in &file.orders {
            if let Some(order) = v.order(so, map, unit_ids, turns) {
                orders.push(order);
            }
        }

        orders
    }

    fn order(
        &mut self,
        so: &Spanned<RawOrder>,
        map: Option<&Map>,
        unit_ids: &HashMap<String, UnitId>,
        turns: u32,
    ) -> Option<Order> {
        let o = so.get_ref();
        let turn = *o.turn.get_ref();
        if turn > turns {
            self.at(
                o.turn.span(),
                format!("order: turn {turn} is outside 0..={turns}"),
            );
        }
        let unit = |name: &str| unit_ids.get(name).copied();
        let names = grammar::Names { unit: &unit, map };
        let (unit, action) = match grammar::parse_order(&names, o.do_.get_ref()) {
            Ok(order) => order,
            Err(e) => {
                let meant = match &e {
                    grammar::GrammarError::UnknownUnit(name) => {
                        let mut known: Vec<&str> = unit_ids.keys().map(String::as_str).collect();
                        known.sort_unstable();
                        hexmap::did_you_mean(name, known)
                    }
                    _ => String::new(),
                };
                self.at(
                    o.do_.span(),
                    format!("order `{}`: {e}{meant}", o.do_.get_ref()),
                );
                return None;
            }
        };
        if turn == 0 && !matches!(action, OrderAction::Command(Command::Move { .. })) {
            self.at(
                o.turn.span(),
                format!(
                    "order `{}`: turn 0 is recon deployment (R15.4): only `move` orders",
                    o.do_.get_ref()
                ),
            );
        }
        Some(Order { turn, unit, action })
    }
}
