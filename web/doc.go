// Package web is the server behind `urim serve`: one page (plain HTML, CSS
// and JavaScript embedded in the binary, nothing fetched from elsewhere) to
// play, watch and analyse games, replay stored games and follow training
// runs, and the small JSON API the page calls (docs/web.md).
//
// The server keeps no game state: every request carries the game it is
// about (rules, start position, moves), so undo, replays and reloads are
// plain requests. What it reads is confined to the directories and files of
// its [Config]; agent specs from the page are checked by a policy (no
// external engines unless allowed, files only from the served paths, capped
// search budgets), at most [Config.MaxJobs] searches run at once, and a
// request whose client goes away stops its work.
package web
