// @ts-check
// GENERATED from the server's OpenAPI document (GET /api/openapi.json, made from the
// Rust types by crates/lgame-web/src/openapi.rs): do not edit. The test
// openapi::tests::the_pages_api_types_are_the_documents fails when it differs;
// `LGAME_BLESS=1 cargo test -p lgame-web --lib openapi` writes it again.
// JSDoc only: the API's answers and bodies as the page reads and sends them.

/**
 * An account, as its owner sees it (`GET /api/account`).
 * @typedef {Object} Account
 * @property {boolean} bot A bot account (`POST /api/account/bot`).
 * @property {number} created When it was made (Unix seconds).
 * @property {string | null} email Shown to the owner only.
 * @property {string} username
 */

/**
 * Both sides' accuracy in a finished game (`lgame_solver::accuracy`).
 * @typedef {Object} AccuracyAnswer
 * @property {SideAccuracyAnswer} blue
 * @property {SideAccuracyAnswer} red
 */

/**
 * A player's accuracy over their newest rated games of a category (up to 50): the mean share of their scored moves that kept the position's value, and the same over the newest ten (above the average: improving).
 * @typedef {Object} AccuracyTrend
 * @property {number} average
 * @property {number} games
 * @property {number} recent
 */

/**
 * One move of an [`Analysis`].
 * @typedef {Object} AnalysedMove
 * @property {Move} move The move.
 * @property {number | null} plies Plies to the end counted from the analysed position, `null` for a draw.
 * @property {Position} position The position it leads to.
 * @property {ValueName} value Its value for the mover.
 */

/**
 * The solver's analysis of a position (the JSON of `lgame analyze --json`): its value and every legal move's, best first.
 * @typedef {Object} Analysis
 * @property {number} legal_moves How many legal moves there are.
 * @property {AnalysedMove[]} moves Every legal move, best first.
 * @property {number | null} plies Plies to the end under best play, `null` for a draw.
 * @property {Position} position The position (canonical text).
 * @property {ValueName} value For the player to move.
 * @property {Rules} variant The rules (canonical text).
 */

/**
 * An arena an account joined.
 * @typedef {Object} ArenaJoined
 * @property {string} arena
 * @property {number} joined_ms When it last joined, in the server's milliseconds.
 * @property {number | null} left_ms When it left (`null`: still in).
 */

/**
 * The answer to `GET /api/arenas`: those not yet over first, soonest first, then the finished, the latest first; at most 50.
 * @typedef {Object} ArenaList
 * @property {ArenaSummary[]} arenas
 */

/**
 * `POST /api/arenas`: an arena tournament.
 * @typedef {Object} ArenaRequest
 * @property {TimeControl} clock Every game's time control, as a seek's.
 * @property {number} minutes How long pairing goes on: 10 to 180.
 * @property {boolean} [rated] Rated (a rated variant and control: docs/ratings.md) or casual (the default).
 * @property {number | null} [starts_at] When it starts (the server's time, in milliseconds; default now, and never before).
 * @property {string | null} [variant] The variant's catalog name (default `classic`).
 */

/**
 * A player's line in an arena's standings.
 * @typedef {Object} ArenaStanding
 * @property {boolean} fire On a streak: their last two games won, so their next game's points double.
 * @property {string | null} game The game of the arena they are playing (`null` while waiting, and for the instant a new pairing's game takes to be stored).
 * @property {number} rank 1 for the best.
 * @property {number} score
 * @property {number[]} sheet The points of each of their games, in order.
 * @property {string} username
 * @property {boolean} withdrawn Left the arena, or withdrawn for not moving in a game: not paired again.
 */

/**
 * An arena tournament, as `GET /api/arenas` lists it (docs/api.md, "Arenas").
 * @typedef {Object} ArenaSummary
 * @property {string | null} category A rated arena's category (docs/ratings.md); `null`: casual.
 * @property {TimeControl} clock
 * @property {string | null} creator Who made it (a username; `null` once their account is closed).
 * @property {number} ends_at
 * @property {string} id
 * @property {number} minutes How long pairing goes on.
 * @property {number} players How many joined.
 * @property {boolean} rated
 * @property {string} speed
 * @property {number} starts_at When pairing starts and ends (the server's time, in milliseconds).
 * @property {string} state `upcoming`, `running` (until its end, and after it while a game of it goes on) or `finished`.
 * @property {string} variant The variant's catalog name.
 */

/**
 * An arena with its standings: the answer to `GET /api/arenas/{id}`, to its creation, to joining and leaving.
 * @typedef {Object} ArenaView
 * @property {string | null} category A rated arena's category (docs/ratings.md); `null`: casual.
 * @property {TimeControl} clock
 * @property {string | null} creator Who made it (a username; `null` once their account is closed).
 * @property {number} ends_at
 * @property {string} id
 * @property {number} minutes
 * @property {number} players
 * @property {string[] | null} podium The best three's usernames once the arena is finished, else `null`.
 * @property {boolean} rated
 * @property {string} speed
 * @property {ArenaStanding[]} standings Every player who joined, best first: by score, then who reached it first, then by username.
 * @property {number} starts_at
 * @property {string} state `upcoming`, `running` or `finished`.
 * @property {string} variant The variant's catalog name.
 */

/**
 * A board's size, e.g. `4x4`.
 * @typedef {string} Board
 */

/**
 * A bot, as the lobby lists them.
 * @typedef {Object} BotInfo
 * @property {string | null} level The server's computer level it plays (`null`: a program plays it through the API).
 * @property {boolean} online Whether it accepts challenges now: the server's levels always; a program's bot while its event stream is open.
 * @property {string} username
 */

/**
 * `GET /api/bots`.
 * @typedef {Object} BotList
 * @property {BotInfo[]} bots
 */

/**
 * The catalog: everything the page lists or states about the game that is not a position being played.
 * @typedef {Object} Catalog
 * @property {Facts} facts The classic game solved.
 * @property {string[]} levels The computer's levels, weakest first (`random` … `perfect`).
 * @property {SetupEntry[]} setups The named starting setups (`standard`, `kit`, `corners`) on the classic board.
 * @property {VariantEntry[]} variants The variants offered by name, the specification's first, in its order.
 */

/**
 * A player's rating in one category, its history and their accuracy.
 * @typedef {Object} CategoryRating
 * @property {AccuracyTrend | null} accuracy Their moves' accuracy against the solved game in these games (`null`: none could be scored).
 * @property {string} category
 * @property {number} deviation
 * @property {number} games The rated games that made it.
 * @property {HistoryPoint[]} history The rating after each rated game, oldest first.
 * @property {number} last_ms When the last ended (Unix milliseconds).
 * @property {boolean} provisional Shown with "?": the deviation is 110 or more.
 * @property {number} rating
 * @property {number} volatility
 */

/**
 * Cells by name, separated by commas in notation order, e.g. `A1,A2,A3,B3`.
 * @typedef {string} Cells
 */

/**
 * `POST /api/challenges/{username}`: a game asked of a bot.
 * @typedef {Object} ChallengeRequest
 * @property {TimeControl | null} [clock] The time control (none: untimed).
 * @property {string | null} [color] The challenger's side: `red`, `blue` or `random` (the default).
 * @property {boolean} [rated] Rated (accounts only, and a rated variant and control) or casual (the default).
 * @property {string | null} [variant] The variant's catalog name (default `classic`).
 */

/**
 * A challenge to a bot.
 * @typedef {Object} ChallengeView
 * @property {string | null} category A rated challenge's category; `null`: casual.
 * @property {string} challenged The bot challenged.
 * @property {string | null} challenger The challenger's username (`null`: a browser without an account).
 * @property {TimeControl | null} clock The time control (`null`: untimed).
 * @property {string} color The challenger's side asked for: `red`, `blue` or `random`.
 * @property {number} created_ms When it was made (Unix milliseconds).
 * @property {string | null} game The game, once accepted.
 * @property {string} id
 * @property {boolean} rated
 * @property {string | null} reason Why the bot declined (`declined` only).
 * @property {string | null} seat The challenger's side in it, once accepted.
 * @property {string | null} speed
 * @property {string} status `pending`, `accepted`, `declined` or `canceled` (withdrawn, or unanswered for a minute).
 * @property {string} variant The variant's catalog name.
 */

/**
 * What a claim asks for: `win` or `draw`.
 * @typedef {'win' | 'draw'} Claim
 */

/**
 * `POST /api/games/{id}/claim`: an absent opponent's game claimed.
 * @typedef {Object} ClaimRequest
 * @property {Claim} result `win` or `draw`.
 * @property {Color | null} [side] Which of the asker's seats claims, when they hold both.
 * @property {string | null} [token] The token of the side claiming (without one: the asker's seat).
 */

/**
 * One symmetry class: its canonical position, Red to move.
 * @typedef {Object} ClassAnswer
 * @property {number | null} plies The distance to the end in plies; `null` for a draw.
 * @property {Position} position The class's canonical position.
 * @property {ValueName} value `win`, `draw` or `loss` for the player to move.
 */

/**
 * The answer to `GET /api/classes`.
 * @typedef {Object} ClassesAnswer
 * @property {number[]} distances Every distance that occurs.
 * @property {number | null} plies The distance asked for.
 * @property {ClassAnswer[]} positions One position of each class, shortest distance first (at most 1,000).
 * @property {number} total How many classes there are (more than are listed above the limit).
 * @property {ValueName} value `win`, `draw` or `loss` for the player to move.
 * @property {Rules} variant The rules.
 */

/**
 * A game's clocks as of an answer or a message.
 * @typedef {Object} Clock
 * @property {number} blue_ms Blue's time left.
 * @property {number} [days] Correspondence: days a move.
 * @property {number | null} first_move_ms Before both first moves: the side to move's time left to make its first move before the game is aborted.
 * @property {number} [increment_s] Real time: seconds added after each move.
 * @property {number} [initial_s] Real time: seconds each side started with.
 * @property {number} red_ms Red's time left, in milliseconds.
 * @property {Color | null} running Whose time runs: `null` before both first moves and after the end.
 * @property {string} speed `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical` (by `initial_s + 40 × increment_s`) or `correspondence`.
 */

/**
 * `POST /api/account/email/confirm`: the mailed link's code.
 * @typedef {Object} CodeRequest
 * @property {string} code
 */

/**
 * A side.
 * @typedef {'red' | 'blue'} Color
 */

/**
 * Correspondence: days a move.
 * @typedef {Object} CorrespondenceControl
 * @property {number} days Days for each move: 1 to 14.
 */

/**
 * A player's games, counted by how they ended for them.
 * @typedef {Object} Counts
 * @property {number} draws
 * @property {number} games
 * @property {number} losses
 * @property {number} wins
 */

/**
 * `POST /api/games`: a new game.
 * @typedef {Object} CreateRequest
 * @property {string} blue Blue's seat.
 * @property {TimeControl | null} [clock] The time control (absent: none).
 * @property {Color[]} [hold] The sides the asker's browser keeps, by its session or anonymous identity (the page's way: no token in the address).
 * @property {Color | null} [invite] A side to invite a friend to: the answer's `invitation` is its one-time link.
 * @property {string} red Red's seat: `human` or a computer level (`perfect`, `beginner:40`, ...).
 * @property {number | null} [repetition] Drawn at this repetition of a position (default 3; 0: never).
 * @property {string | null} [setup] A setup name (`standard`, `kit`, `corners`) or a position (default: the variant's).
 * @property {number | null} [turn_limit] Drawn after this many plies (default and 0: the server's ply cap).
 * @property {string | null} [variant] The rules text (default `classic`).
 */

/**
 * The answer to `POST /api/games` and `POST /api/games/import` (201).
 * @typedef {Object} Created
 * @property {string} id The new game's id.
 * @property {Invitation | null} invitation The one-time invitation to a seat (asked with `invite`): give its link to one person.
 * @property {Players} players The human sides the asker plays only: every human side of a game nobody holds, else the held ones; never an invited side (its seat is the guest's alone).
 * @property {string} spectator_url The game's public address (a path on this server).
 * @property {GameState} state The new game's state.
 * @property {string} watch_page The web page watching the game (an address on this server).
 * @property {string} ws The game's public WebSocket (a path).
 */

/**
 * `POST /api/challenges/{id}/decline`.
 * @typedef {Object} DeclineRequest
 * @property {string | null} [reason] Why: `generic` (the default), `later`, `too_fast`, `too_slow`, `time_control`, `rated`, `casual`, `variant` or `too_many_games`.
 */

/**
 * A game's draw rules.
 * @typedef {Object} DrawRules
 * @property {number | null} repetition Drawn at this repetition of a position (`0` or `1`: no repetition draw).
 * @property {number | null} turn_limit Drawn once this many plies are played (`0`: no turn limit).
 */

/**
 * `POST /api/account/email`: the new address (`null` or empty: none).
 * @typedef {Object} EmailChange
 * @property {string | null} email
 */

/**
 * How many sessions were ended.
 * @typedef {Object} Ended
 * @property {number} ended
 */

/**
 * A refusal: `{"error": "...", "kind": "..."}`, with the client's text that was refused, the game's state for a conflict and the rules' reason for an illegal move.
 * @typedef {Object} ErrorBody
 * @property {string} error What is wrong, in (English) words.
 * @property {string} [input] The client's text that was refused (a variant, a position, a move…), when the refusal names one.
 * @property {string} kind What is wrong, as data: a page words the refusal in its own language by it (`docs/api.md`, "Refusals").
 * @property {IllegalMove} [reason] Why the rules refuse a move, as data (a 422 for an illegal move).
 * @property {GameState} [state] The game's current state (a 409).
 */

/**
 * Everything the server keeps of an account (`GET /api/account/export`).
 * @typedef {Object} Export
 * @property {Account} account
 * @property {ArenaJoined[]} arenas The arenas it joined.
 * @property {FootprintView[]} footprints The browsers (their anonymous identity's hash) and addresses it was used from in the last 30 days (docs/ratings.md, "Fair play").
 * @property {GameSummary[]} games Every game the account holds a seat of.
 * @property {CategoryRating[]} ratings Its ratings, each with its history (the rating after each rated game).
 * @property {ExportedRecord[]} records Each of those games' record (notation.md) with its tags (docs/records.md, "The server's records"), by the game's id.
 * @property {SessionInfo[]} sessions
 * @property {TokenInfo[]} tokens Its API tokens: ids and descriptions, never the tokens.
 */

/**
 * A game's record in an account's export.
 * @typedef {Object} ExportedRecord
 * @property {string} game
 * @property {string} record
 */

/**
 * The figures of the solved classic game (docs/rules.md, "Facts the implementation must reproduce"), counted with the player to move, as the solver counts them.
 * @typedef {Object} Facts
 * @property {number} classes Positions up to the board's symmetries.
 * @property {number} drawn_classes Classes drawn.
 * @property {number} forced_loss_classes Classes lost by force but not yet trapped.
 * @property {number[]} forced_loss_plies The distances, in plies, of those forced losses, shortest first.
 * @property {number | null} longest_win_plies The longest forced win, in plies.
 * @property {number} lost_classes Classes lost for the player to move.
 * @property {MostMoves} most_moves The position with the most legal moves.
 * @property {number} positions Positions.
 * @property {Start} standard The standard setup: its value and moves.
 * @property {number} trapped_classes Classes where the player to move is trapped at once.
 * @property {string} variant The rules these figures are of (`classic`).
 * @property {number} won_classes Classes won for the player to move.
 */

/**
 * A browser or an address an account was used from.
 * @typedef {Object} FootprintView
 * @property {number} first_ms When first used, Unix milliseconds.
 * @property {string} kind `browser` (its anonymous identity's hash, `a:HASH`) or `address`.
 * @property {number} seen_ms When last used.
 * @property {string} value
 */

/**
 * A change to a game, as a WebSocket sends it after the first state: the plies kept, the plies added, and every field of the state that may change (the others never do).
 * @typedef {Object} GameChange
 * @property {AccuracyAnswer | null} accuracy Each side's accuracy once the game is over (`null` before).
 * @property {Clock | null} clock The clocks as of this message.
 * @property {string | null} conclusion The end in words.
 * @property {Color | null} draw_offer The side with a standing draw offer.
 * @property {string | null} ending How the game ended.
 * @property {number} from The plies of the previous state that stand: its `moves` and `positions` are cut to this many, then `moves` and `positions` below are appended.
 * @property {Color | null} invitation The side whose seat has an open invitation.
 * @property {Move[]} moves The moves played after the first `from` plies.
 * @property {boolean} over Whether the game has ended.
 * @property {PlayersBySide} players Who sits at each side.
 * @property {number} plies Plies played.
 * @property {Position} position The position now.
 * @property {Position[]} positions The position after each of them.
 * @property {Presence} present Whether each side has a page open now.
 * @property {RatingsAnswer | null} ratings A rated game's ratings, after it once it is over (`null`: casual).
 * @property {string | null} rematch The game's rematch, once one is asked for (its id).
 * @property {string} result The record's result token.
 * @property {Color} turn The side to move.
 * @property {Color | null} undo_request The side asking to take back its last move.
 */

/**
 * A message of a game's WebSocket: the whole state first (and again after a watcher fell behind), then each change.
 * @typedef {(GameState) & ({ type: 'state' }) | (GameChange) & ({ type: 'change' })} GameMessage
 */

/**
 * A game as everyone may see it: what `GET /api/games/{id}` and a change answer, and what the game's WebSockets send. Never a token.
 * @typedef {Object} GameState
 * @property {AccuracyAnswer | null} accuracy Each side's moves scored against the solved game, once the game is over (`null` while it goes on, and for a variant the server does not solve).
 * @property {string | null} arena The arena that paired the game (its id: `GET /api/arenas/{id}`), if one did.
 * @property {string | null} category A rated game's rating category; `null`: casual.
 * @property {Clock | null} clock The clocks as of this answer (`null`: the game has no time control).
 * @property {string | null} conclusion The end in words.
 * @property {Color | null} draw_offer The side with a standing draw offer.
 * @property {DrawRules} draw_rules The game's draw rules.
 * @property {string | null} ending How the game ended (`trapped`, `resignation`, ...).
 * @property {string} id The game's id (16 hex digits).
 * @property {Color | null} invitation The side whose seat has an open invitation (a friend's game before they join).
 * @property {Color | null} invited The side a friend was invited to by link, before and after they took it (`null`: nobody was invited: the computer's game, a pairing's, a bot's).
 * @property {Move[]} moves The moves played, in order (`moves[i]` is ply `i + 1`).
 * @property {boolean} over Whether the game has ended.
 * @property {PlayersBySide} players Who sits at each side: an account's name, a browser without one, a computer, or a seat nobody has taken yet.
 * @property {number} plies Plies played.
 * @property {Position} position The position now.
 * @property {Position[]} positions The position after each ply.
 * @property {Presence} present Whether each side has a page open now.
 * @property {boolean} rated Whether the game is rated (docs/ratings.md).
 * @property {RatingsAnswer | null} ratings A rated game's players' ratings: before it, and after it once it is over (`null` for a casual game).
 * @property {string | null} rematch The game's rematch, once one is asked for (its id).
 * @property {string | null} rematch_of The game this one is the rematch of (its id).
 * @property {string} result The record's result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
 * @property {Seats} seats `human` or the computer player.
 * @property {Position} start The starting position.
 * @property {Color} turn The side to move.
 * @property {Color | null} undo_request The side asking the other's consent to take back its last move (two people only).
 * @property {string | null} variant The rules text of the game's record (its `Variant` tag).
 * @property {Color} [you] The asker's side: their token's, or the seat their session or browser holds (with both seats, the side to move). Absent for a spectator and in a WebSocket's messages.
 * @property {Color[]} [your_sides] Every seat the asker plays (absent in a WebSocket's messages, which go to all).
 */

/**
 * A game in a list.
 * @typedef {Object} GameSummary
 * @property {boolean} aborted Whether it was aborted (called off before both sides moved): over, with no result.
 * @property {TimeControl | null} clock Its time control (`null`: untimed).
 * @property {number} created When it was made (Unix seconds).
 * @property {string} id
 * @property {boolean} over
 * @property {PlayersBySide} players
 * @property {number} plies
 * @property {string} result The result token (`*` while it goes on, and for an aborted game).
 * @property {string} url The game's page (an address on this server).
 * @property {string | null} variant The rules text (`null`: not a named variant).
 * @property {Color | null} you The side of the player whose list this is.
 */

/**
 * A page of a list of games, newest first.
 * @typedef {Object} GamesPage
 * @property {GameSummary[]} games
 * @property {number} page
 * @property {number} per_page
 * @property {number} total The games the filters match, in all.
 */

/**
 * The answer to `GET /healthz`.
 * @typedef {Object} Health
 * @property {number} games_in_memory Games held in memory now.
 * @property {string} status `ok`.
 * @property {TablesHealth} tables The solved tables in memory.
 */

/**
 * A rating after one rated game.
 * @typedef {Object} HistoryPoint
 * @property {number} at_ms When the game ended (Unix milliseconds).
 * @property {number} deviation
 * @property {string} game
 * @property {number} rating
 */

/**
 * Why the rules refuse a move, as data: its `kind` and the fields its words name (docs/api.md, "Reasons as data").
 * @typedef {{ kind: 'game_over' } | { board: Board, cell: Square, kind: 'off_board' } | { cells: Cells, kind: 'not_an_l' } | { cells: Cells, kind: 'unchanged' } | { cell: Square, kind: 'occupied', piece: Piece } | { kind: 'neutral_after_symmetry_win' } | { allowed: number, found: number, kind: 'too_many_neutral_moves', rules: Rules } | { kind: 'neutral_required' } | { cell: Square, kind: 'no_neutral', piece: Piece | null } | { cell: Square, kind: 'neutral_target_occupied', piece: Piece }} IllegalMove
 */

/**
 * `POST /api/games/import`: a game from its record.
 * @typedef {Object} ImportRequest
 * @property {string | null} [blue] Blue's seat (default `human`).
 * @property {Color[]} [hold] The sides the asker holds (as in `POST /api/games`): the game is then theirs, in their list of games, as a game played in their browser without the server.
 * @property {string} record The record's text (notation.md).
 * @property {string | null} [red] Red's seat (default `human`).
 */

/**
 * A one-time invitation to take a game's seat.
 * @typedef {Object} Invitation
 * @property {Color} side The seat's side.
 * @property {string} url The page's address that offers the seat (a path on this server).
 */

/**
 * `GET /api/leaderboard/{category}`: the best 100 established players who played rated in the category in the last 30 days.
 * @typedef {Object} Leaderboard
 * @property {string} category
 * @property {LeaderboardLine[]} players The established players (deviation under 110), ranked.
 * @property {LeaderboardLine[]} provisional The players whose rating is still provisional (too few games to rank them), best first, each `rank` its place among them.
 */

/**
 * @typedef {Object} LeaderboardLine
 * @property {number} deviation
 * @property {number} games
 * @property {number} rank
 * @property {number} rating
 * @property {string} username
 */

/**
 * A message of the lobby's live stream (`GET /api/lobby/ws`), by its `type`: `lobby` (the open seeks, first and after falling behind), `seek` (a new one), `gone` (one taken, withdrawn or unseen), `game` (to the seeker's pages only: its seek taken, or its ticket paired).
 * @typedef {Object} LobbyMessage
 * @property {string | null} [game] `game`: `seek` or `ticket`, the game, its page, and the side the seeker plays.
 * @property {string | null} [id] `gone`: the seek's id.
 * @property {SeekView | null} [seek] `seek`: the new seek; `game`: the seek taken (`null` for a ticket).
 * @property {SeekView[] | null} [seeks] `lobby`: the open seeks, newest first.
 * @property {Color | null} [side]
 * @property {string} type `lobby`, `seek`, `gone` or `game`.
 * @property {string | null} [watch_page]
 */

/**
 * `POST /api/session`: a log-in.
 * @typedef {Object} LogInRequest
 * @property {string} password
 * @property {string} username The username, in any case.
 */

/**
 * `GET` and `PUT /api/account/mail`: what the account is mailed.
 * @typedef {Object} MailChoices
 * @property {boolean} your_move A mail when it is the account's move in a correspondence game (at most one a day; several games waiting, one digest), to its confirmed address. On unless turned off.
 */

/**
 * The position with the most legal moves, and how they multiply.
 * @typedef {Object} MostMoves
 * @property {number} l_placements The places its L can go.
 * @property {number} moves Its legal moves.
 * @property {number} neutral_choices The choices for the neutrals after each (`moves / l_placements`).
 * @property {string} position One such position (one-line form).
 */

/**
 * A move in notation (notation.md): the L's four cells, then each neutral step, e.g. `A1,A2,A3,B3 D1-D2`.
 * @typedef {string} Move
 */

/**
 * A legal move as the board draws it.
 * @typedef {Object} MoveAnswer
 * @property {Square[]} l The L's new cells.
 * @property {Move} move The move.
 * @property {Square[][]} neutrals Each neutral step, from and to.
 * @property {Position} position The position it leads to.
 */

/**
 * `POST /api/games/{id}/moves`: a move for a ply.
 * @typedef {Object} MoveRequest
 * @property {string} move The move in notation.
 * @property {number} ply The ply the move is for: the state's `plies + 1`.
 * @property {Color | null} [side] Which of the asker's seats moves, when they hold both.
 * @property {number | null} [think_ms] In a timed game: how long the move took the player by the client's own clock (from the position shown to the move sent). What the server counted beyond it is network lag, forgiven out of a quota (docs/api.md, "Clocks").
 * @property {string | null} [token] The token of the side moving (without one: the asker's seat).
 */

/**
 * `POST /api/account/tokens`: a new API token.
 * @typedef {Object} NewTokenRequest
 * @property {string | null} [description] What it is for (at most 100 characters).
 */

/**
 * No L covers the cells.
 * @typedef {Object} NoPlacement
 * @property {Cells} cells The cells.
 * @property {NoPlacementKind} kind `no_placement`.
 */

/**
 * The kind of [`NoPlacement`].
 * @typedef {'no_placement'} NoPlacementKind
 */

/**
 * Any JSON object (the OpenAPI document itself).
 * @typedef {Record<string, unknown>} OpenApiDocument
 */

/**
 * The end of a finished position.
 * @typedef {Object} OutcomeAnswer
 * @property {string} conclusion In words.
 * @property {string} ending `trapped`, `symmetry` or `score target`.
 * @property {Color} winner The side that won.
 */

/**
 * `POST /api/pairing`: waiting in quick pairing's pool.
 * @typedef {Object} PairingRequest
 * @property {string} control One of the pool's controls: `1+0`, `2+1`, `3+0`, `3+2`, `5+0`, `5+3`, `10+0`, `10+5`, `15+10` (minutes + seconds a move), `1d`, `3d` (days a move).
 * @property {boolean} [rated] Rated (accounts only) or casual (the default): each is paired with its own kind.
 */

/**
 * The answer to `POST /api/pairing` (202) and `GET /api/pairing/{ticket}`.
 * @typedef {Object} PairingStatus
 * @property {string} control
 * @property {string | null} game Once paired: the game, its page and the side played.
 * @property {Color | null} side
 * @property {string} status `waiting` or `paired`.
 * @property {string} ticket The ticket: the secret to ask with, and to play the game's seat with (its `token`).
 * @property {string | null} watch_page
 */

/**
 * Why cells chosen for an L cannot become a legal placement: no free L covers them, or the rules' reason as for a move.
 * @typedef {NoPlacement | IllegalMove} PartialLError
 */

/**
 * `POST /api/account/password`.
 * @typedef {Object} PasswordChange
 * @property {string} new_password The password from now on.
 * @property {string} password The password now.
 */

/**
 * `DELETE /api/account`: the password, to close the account.
 * @typedef {Object} PasswordRequest
 * @property {string} password
 */

/**
 * What stands on a cell: a side's L or a neutral.
 * @typedef {'red' | 'blue' | 'neutral'} Piece
 */

/**
 * Where the pieces stand.
 * @typedef {Object} Pieces
 * @property {Square[]} blue Blue's L.
 * @property {Square[]} neutrals The neutral pieces.
 * @property {Square[]} red Red's L.
 */

/**
 * Who sits at a side.
 * @typedef {Object} Player
 * @property {PlayerKind} kind
 * @property {string | null} name The account's username, or the computer's level (`null` otherwise).
 */

/**
 * What kind of player sits at a side.
 * @typedef {'user' | 'anonymous' | 'deleted' | 'computer' | 'bot' | 'open'} PlayerKind
 */

/**
 * A human side's secret and its private URLs.
 * @typedef {Object} PlayerLinks
 * @property {string} token The side's secret: it alone acts for the side. Given once.
 * @property {string} url The game's address with the token (private).
 * @property {string} ws The game's WebSocket with the token (private).
 */

/**
 * The links of each human side of a new game.
 * @typedef {Object} Players
 * @property {PlayerLinks} [blue] Blue's, if Blue is a person.
 * @property {PlayerLinks} [red] Red's, if Red is a person.
 */

/**
 * Who sits at each side.
 * @typedef {Object} PlayersBySide
 * @property {Player} blue Blue's player.
 * @property {Player} red Red's player.
 */

/**
 * A position in its one-line form (notation.md): the rows from the top, `R`, `B`, `N` and `.`, separated by `/`, then the side to move (`r` or `b`), e.g. `NRR./.RB./.RB./.BBN r`.
 * @typedef {string} Position
 */

/**
 * The answer to `GET /api/position`: a position laid out for drawing, its legal moves, and why each cell cannot join the cells selected so far.
 * @typedef {Object} PositionAnswer
 * @property {number} height The board's rows.
 * @property {Square[][]} l_moves The placements the mover's L may take.
 * @property {number} legal_moves How many legal moves there are.
 * @property {MoveAnswer[] | null} moves Every legal move; `None` above the listing limit.
 * @property {OutcomeAnswer | null} outcome How a finished position ended.
 * @property {Pieces} pieces Where the pieces stand.
 * @property {Position} position The position (one-line form).
 * @property {Record<string, PartialLError>} refusal_reasons The same reasons as data.
 * @property {Record<string, string>} refusals For each cell that cannot join the selected ones, why (in words), by cell name.
 * @property {Scores | null} scores The scores, under scoring rules.
 * @property {Square[]} selected The cells selected so far.
 * @property {Color} turn The side to move.
 * @property {Rules} variant The rules.
 * @property {number} width The board's columns.
 */

/**
 * Whether each side has a page open now.
 * @typedef {Object} Presence
 * @property {boolean} blue Blue's.
 * @property {boolean} red Red's.
 */

/**
 * A player's public profile.
 * @typedef {Object} Profile
 * @property {boolean} bot A bot: a program (or the server's computer) plays it.
 * @property {Counts} counts
 * @property {number} created When the account was made (Unix seconds).
 * @property {GameSummary[]} playing The games the player is playing now.
 * @property {string} username
 */

/**
 * `GET /api/push/key`: the server's VAPID public key.
 * @typedef {Object} PushKey
 * @property {string} key The P-256 public key, uncompressed (65 bytes), base64url without padding: the page's `applicationServerKey`.
 */

/**
 * A Glicko-2 rating as shown: provisional while its deviation is 110 or more.
 * @typedef {Object} RatingView
 * @property {number} deviation
 * @property {boolean} provisional
 * @property {number} rating
 * @property {number} volatility
 */

/**
 * Both players' ratings in a rated game.
 * @typedef {Object} RatingsAnswer
 * @property {SeatRating} blue
 * @property {SeatRating} red
 */

/**
 * Real time: each side's time at the start, and what each move adds.
 * @typedef {Object} RealTimeControl
 * @property {number} increment_s Seconds added after each move: 0 to 180.
 * @property {number} initial_s Seconds each side starts with: 15 to 10800 (180 min).
 */

/**
 * The answer to `POST /api/records`: a record and the game it holds.
 * @typedef {Object} RecordAnswer
 * @property {string | null} conclusion The end in words, if the record's game ended.
 * @property {Move[]} moves The moves, in order.
 * @property {Position[]} positions The position after each move.
 * @property {string} record The record's text.
 * @property {string} result The result token.
 * @property {Position} start The starting position.
 * @property {Rules} variant The rules of the start.
 */

/**
 * `POST /api/records`: a record to read, or a line of moves to write as one.
 * @typedef {Object} RecordRequest
 * @property {string[] | null} [moves] The moves of the line, in notation.
 * @property {string | null} [record] A record's text (notation.md) to read.
 * @property {string | null} [start] The start: a position, a setup name or `start` (default).
 * @property {string | null} [variant] Or: the rules, the start and the moves of a line to write.
 */

/**
 * The answer to `POST /api/password-reset`, the same whoever was named.
 * @typedef {Object} ResetAsked
 * @property {string} message
 */

/**
 * `POST /api/password-reset/confirm`: the mailed link's code and the new password.
 * @typedef {Object} ResetConfirm
 * @property {string} code
 * @property {string} password
 */

/**
 * `POST /api/password-reset`: the account's name, or its confirmed address.
 * @typedef {Object} ResetRequest
 * @property {string | null} [email]
 * @property {string | null} [username]
 */

/**
 * A rules text (notation.md, "Rules"), e.g. `classic`, `sudden-death`, `setup=kit`.
 * @typedef {string} Rules
 */

/**
 * Each side's score, under scoring rules.
 * @typedef {Object} Scores
 * @property {number} blue Blue's score.
 * @property {number} red Red's score.
 */

/**
 * One player's rating before a rated game, and after it once it is over.
 * @typedef {Object} SeatRating
 * @property {RatingView | null} after
 * @property {RatingView} before
 */

/**
 * `POST /api/games/{id}/seat`: a seat taken by its invitation or its token.
 * @typedef {Object} SeatRequest
 * @property {string | null} [invite] The invitation's secret (the `invite` of its link).
 * @property {string | null} [token] A side's token.
 */

/**
 * The seats: `human`, or the computer player (`perfect`, `beginner:40`, ...).
 * @typedef {Object} Seats
 * @property {string} blue Blue's seat.
 * @property {string} red Red's seat.
 */

/**
 * The answer to `POST /api/seeks` (201).
 * @typedef {Object} SeekCreated
 * @property {string} id
 * @property {SeekView} seek
 * @property {string} token The seek's secret, shown once: with it a program withdraws the seek, asks for its game (`GET /api/seeks/{id}?token=`) and plays its seat (the game's `token`).
 */

/**
 * The answer to `GET /api/seeks`: the open seeks, newest first.
 * @typedef {Object} SeekList
 * @property {SeekView[]} seeks
 */

/**
 * `POST /api/seeks`: a seek for the lobby.
 * @typedef {Object} SeekRequest
 * @property {TimeControl} clock The time control: a seek always has one.
 * @property {string | null} [colour] The seeker's side: `red`, `blue` or `random` (the default).
 * @property {boolean} [rated] Rated (accounts only, and a rated variant: docs/ratings.md) or casual (the default).
 * @property {number[] | null} [rating_range] The ratings the seek's taker may have, `[min, max]` (in the seek's category).
 * @property {string | null} [variant] The variant's catalog name (default `classic`).
 */

/**
 * The answer to `GET /api/seeks/{id}`.
 * @typedef {Object} SeekStatus
 * @property {string | null} game Its game, once taken.
 * @property {SeekView} seek
 * @property {Color | null} side The seeker's side in it: told only to the seeker (its cookies or its `token`).
 * @property {string} status `open`, `taken` (its game named) or `gone` (withdrawn, or its page closed).
 */

/**
 * An open seek, as the lobby lists it.
 * @typedef {Object} SeekView
 * @property {string | null} category A rated seek's category (docs/ratings.md); `null`: casual.
 * @property {TimeControl} clock
 * @property {string} colour The seeker's side: `red`, `blue` or `random`.
 * @property {number} created_ms When it was made (the server's time, in milliseconds).
 * @property {string} id
 * @property {boolean} mine The asker's own seek.
 * @property {string | null} name The seeker's username (`null`: anonymous).
 * @property {boolean} provisional Whether that rating is provisional (shown with "?").
 * @property {boolean} rated
 * @property {number} rating The seeker's rating in the seek's category (rated or not), rounded; a browser's is the start's, 1500.
 * @property {number[] | null} rating_range The ratings the seek's taker may have, `[min, max]`.
 * @property {string} speed
 * @property {string} variant The variant's catalog name.
 */

/**
 * A session, as the account's settings and data list it (never its cookie).
 * @typedef {Object} SessionInfo
 * @property {string | null} address The address it was opened from.
 * @property {number} created Unix seconds: made, last used (renewed at most once a day), ends.
 * @property {boolean} current Whether it is the asker's own session.
 * @property {string | null} device The browser it was opened in, in the browser's own words (its `User-Agent`).
 * @property {number} expires
 * @property {string} id Its public id (16 hex digits), to end it with `DELETE /api/account/sessions/{id}`: nothing of its cookie.
 * @property {number} used
 */

/**
 * The answer to `GET /api/session`: the session's account, or `null` for nobody.
 * @typedef {Object} SessionInfoAnswer
 * @property {Account | null} account
 */

/**
 * The answer to `GET /api/account/sessions`: the account's sessions, the last used first.
 * @typedef {Object} Sessions
 * @property {SessionInfo[]} sessions
 */

/**
 * A named starting setup.
 * @typedef {Object} SetupEntry
 * @property {string[]} blue Blue's L.
 * @property {string} name Its name, as a game's `setup` and a position argument take it.
 * @property {string[]} neutrals The neutrals.
 * @property {string} position The starting position in the one-line form (classic rules).
 * @property {string[]} red Red's L, in notation order (by column, then row).
 */

/**
 * One side's moves against the solved game: a move keeps the value when a won position stays won and a drawn one is not lost; moves in lost positions are counted, not scored.
 * @typedef {Object} SideAccuracyAnswer
 * @property {number | null} accuracy `kept / scored`, from 0 to 1; `null` when no move was scored.
 * @property {number} drawn_kept
 * @property {number} drawn_moves Moves in drawn positions, and how many of them kept the draw.
 * @property {number} extra_plies Over the moves that kept a win: the plies they added to the fastest win.
 * @property {number} kept The scored moves that kept the value.
 * @property {number} lost_moves Moves in lost positions (not scored).
 * @property {number} moves Every move the side made.
 * @property {number} scored The moves scored: those in won or drawn positions.
 * @property {number} won_kept
 * @property {number} won_moves Moves in won positions, and how many of them kept the win.
 */

/**
 * `POST /api/account`: a new account.
 * @typedef {Object} SignUpRequest
 * @property {string | null} [email] Optional, never shown to anyone else.
 * @property {string} password At least 8 characters, not a common password.
 * @property {string} username 2 to 20 ASCII letters, digits, `_` and `-`; unique whatever its case.
 */

/**
 * A cell's name: its column letter and row number, e.g. `B3`.
 * @typedef {string} Square
 */

/**
 * A starting position's value and legal moves.
 * @typedef {Object} Start
 * @property {number} moves Its legal moves.
 * @property {number | null} plies The distance to the end, if not a draw.
 * @property {string} position The position (one-line form).
 * @property {ValueName} value `win`, `draw` or `loss` for the player to move.
 */

/**
 * A browser's push subscription, as `PushSubscription.toJSON()` gives it.
 * @typedef {Object} Subscription
 * @property {string} endpoint The push service's URL for this browser: `https` on a public address.
 * @property {number | null} [expirationTime] When the browser ends it (milliseconds since 1970), if it says: accepted as sent, not kept (a subscription ends when its push service answers 404 or 410).
 * @property {SubscriptionKeys} keys
 */

/**
 * A subscription's keys, base64url.
 * @typedef {Object} SubscriptionKeys
 * @property {string} auth Its authentication secret (16 bytes).
 * @property {string} p256dh The browser's P-256 public key (65 bytes, uncompressed).
 */

/**
 * The solved tables in memory (`GET /healthz`).
 * @typedef {Object} TablesHealth
 * @property {number | null} budget The memory budget (`--table-memory`); `None`: no bound.
 * @property {number} bytes Their bytes.
 * @property {number} held Tables held, ready.
 * @property {number} solves Tables solved since the server started.
 * @property {number} solving Tables being solved now.
 */

/**
 * A time control: real time (a base and a Fischer increment), or days a move.
 * @typedef {RealTimeControl | CorrespondenceControl} TimeControl
 */

/**
 * The answer to `POST /api/account/tokens` (201): the token, shown this once.
 * @typedef {Object} TokenCreated
 * @property {number} created_ms When it was made (Unix milliseconds).
 * @property {string | null} description
 * @property {string} id The token's id, to revoke it.
 * @property {string} token The token: `Authorization: Bearer TOKEN`. Only its hash is kept: it cannot be shown again.
 */

/**
 * One of the account's tokens, without the token.
 * @typedef {Object} TokenInfo
 * @property {number} created_ms
 * @property {string | null} description
 * @property {string} id
 */

/**
 * `GET /api/account/tokens`.
 * @typedef {Object} TokenList
 * @property {TokenInfo[]} tokens
 */

/**
 * The body of a change that needs only who asks (undo, draw, resign, rematch): a side's token, or none and the asker's seat.
 * @typedef {Object} TokenRequest
 * @property {Color | null} [side] Which of the asker's seats asks, when they hold both.
 * @property {string | null} [token] The token of the side asking (without one: the asker's seat).
 */

/**
 * `DELETE /api/push/subscriptions`: the subscription to end, by its endpoint.
 * @typedef {Object} Unsubscription
 * @property {string} endpoint
 */

/**
 * `GET /api/users/{name}/ratings`: a player's rating in each category they have played rated.
 * @typedef {Object} UserRatings
 * @property {CategoryRating[]} ratings
 * @property {string} username
 */

/**
 * A value for the player to move.
 * @typedef {'win' | 'draw' | 'loss'} ValueName
 */

/**
 * A variant the page offers by name.
 * @typedef {Object} VariantEntry
 * @property {string} name Its name for people (English), e.g. `sudden death`.
 * @property {number} positions Positions in its table.
 * @property {string} rules The canonical rules text, e.g. `sudden-death`.
 * @property {boolean} solvable Whether this server solves its table (computer players, analysis, puzzles).
 * @property {boolean} specification One of the specification's variants (`lgame::VARIANTS`), not just another size.
 * @property {string} summary What it changes, in one line (English).
 */

export {};
