#pragma once
// What the back row of a lecture room reads, as numbers: the one place the projector minimums
// are defined. Every slide, deck page and presentation screen lays out to them, and where its
// content does not fit at them it changes layout (the text that does not fit goes to the speaker
// notes, a figure draws fewer rows and says how many it left out) instead of shrinking below.
//
// Set for a 1280x720 classroom projector, seen from the back row, and scaled with the height
// (1920x1080: 24, 30 and 48 px):
//
//   digits 16 px   a figure's numbers and words: lane, bank and wavefront numbers, captions,
//                  legends
//   body   20 px   the step's sentences and code, the track and step line, the scenario, the
//                  keys' footer
//   title  32 px   the step's title and the verdict line ("32-way bank conflict: ...")
namespace banklab::figures {

struct TypeMinimums {
  float digits = 0;
  float body = 0;
  float title = 0;
};

// The height the minimums are set for; a screen of another height scales them.
inline constexpr float kProjectorHeight = 720.0f;

// The minimums for a screen (a slide, a browser window, the app's window) `height` pixels tall:
// the 1280x720 values times height / 720, in whole pixels, never below them.
TypeMinimums projector_minimums(float height);

// A screen narrower than this is held in the hand (a phone is 390 px wide), read at arm's
// length rather than from the back row; the app lays its windows out in one column there.
inline constexpr float kHandheldWidth = 600.0f;

// What a hand-held screen's reader needs, the numbers as the phone's one-column views draw them:
//
//   digits 11 px   body 14 px   title 20 px
inline constexpr TypeMinimums kHandheldMinimums{11.0f, 14.0f, 20.0f};

// The minimums for a screen of width x height: a hand-held one's (narrower than
// kHandheldWidth), else projector_minimums(height).
TypeMinimums screen_minimums(float width, float height);

}  // namespace banklab::figures
