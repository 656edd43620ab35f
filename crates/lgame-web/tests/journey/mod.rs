//! What the journeys share (`web_journeys.rs`): a person at a browser of their own, on a phone
//! (390×844 or 360×640, touch: every press is a tap at the element's place) or at a desktop
//! (1280×800: every press is a click at the element's place), who types, goes back, and has
//! each step photographed in `target/browser-artifacts/journeys/JOURNEY/`.
#![allow(dead_code)] // each journey uses a part

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use crate::browser_common::{self, artifacts_dir, game_of, js, Bench};
use lgame_test_support::browser::{Driver, Element, Session};
use serde_json::Value;

/// A person at a browser.
pub struct Person {
    pub page: Session,
    pub name: &'static str,
    phone: bool,
    journey: &'static str,
}

/// The steps photographed so far, by every journey: each step's number (its file's first
/// part) orders the people's screenshots of one journey as they were taken.
static STEPS: AtomicU32 = AtomicU32::new(0);

/// The journeys whose folder of screenshots this run has emptied (an earlier run's are gone,
/// so that the folder is one walk's).
static BEGUN: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

impl Person {
    /// A person with a 390×844 phone.
    pub fn phone(driver: &Driver, journey: &'static str, name: &'static str) -> Person {
        Person::at(driver.phone(), true, journey, name)
    }

    /// A person with a small phone (360×640).
    pub fn small_phone(driver: &Driver, journey: &'static str, name: &'static str) -> Person {
        Person::at(driver.phone_sized(360, 640), true, journey, name)
    }

    /// A person at a 1280×800 desktop.
    pub fn desktop(driver: &Driver, journey: &'static str, name: &'static str) -> Person {
        Person::at(driver.session_with(1280, 800), false, journey, name)
    }

    fn at(page: Session, phone: bool, journey: &'static str, name: &'static str) -> Person {
        if BEGUN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(journey)
        {
            let _ = std::fs::remove_dir_all(artifacts_dir().join("journeys").join(journey));
        }
        Person {
            page,
            name,
            phone,
            journey,
        }
    }

    pub fn is_phone(&self) -> bool {
        self.phone
    }

    /// Opens an address of the bench's server (`#/play`, `/@/ann`) and waits for its view.
    pub fn open(&self, bench: &Bench, address: &str) {
        bench.open(&self.page, address);
    }

    /// The first element matching `css`, once it is shown.
    pub fn shown(&self, css: &str) -> Element<'_> {
        let element = self.page.find(css);
        self.page
            .wait_until(&format!("{css} to be shown"), || element.is_displayed());
        element
    }

    /// Presses the element matching `css` once it is shown and enabled: a tap on a phone, a
    /// click on a desktop.
    pub fn press(&self, css: &str) {
        let element = self.shown(css);
        self.page.wait_until(&format!("{css} to be enabled"), || {
            element.prop("disabled") != true
        });
        self.press_element(&element);
    }

    /// Presses an element found already.
    pub fn press_element(&self, element: &Element<'_>) {
        if self.phone {
            element.tap();
        } else {
            element.click();
        }
    }

    /// Presses the field matching `css` and types `text` into it.
    pub fn type_into(&self, css: &str, text: &str) {
        self.press(css);
        self.page.find(css).send_keys(text);
    }

    /// The browser's back button.
    pub fn back(&self) {
        self.page.execute("history.back()", vec![]);
    }

    /// Photographs the page now, as the journey's next step.
    pub fn shot(&self, what: &str) {
        let n = STEPS.fetch_add(1, Ordering::SeqCst) + 1;
        let file = format!("{n:03}-{}-{what}.png", self.name);
        self.page.screenshot(
            artifacts_dir()
                .join("journeys")
                .join(self.journey)
                .join(file),
        );
    }

    /// Plays a move of the page's move list (`/api/position`'s) by pressing its cells.
    pub fn play(&self, entry: &Value) {
        browser_common::play_by_pressing(&self.page, entry, &|css| self.press(css));
    }

    /// The game this person's page shows, once it shows one.
    pub fn wait_for_game(&self) -> String {
        self.page
            .wait_until("a game to open", || game_of(&self.page).is_some());
        game_of(&self.page).unwrap()
    }

    /// The text of the first element matching `css` (empty when none).
    pub fn text(&self, css: &str) -> String {
        self.page.try_text(css).unwrap_or_default()
    }

    /// Waits until the first element matching `css` holds `words`.
    pub fn wait_for_words(&self, css: &str, words: &str) {
        self.page
            .wait_until(&format!("{css} to say {words:?}"), || {
                self.text(css).contains(words)
            });
    }

    /// The sounds the page has played (game/sound.js keeps them for tests).
    pub fn sounds(&self) -> Vec<String> {
        serde_json::from_value(js(&self.page, "return window.lgameSounds || []")).unwrap()
    }
}
