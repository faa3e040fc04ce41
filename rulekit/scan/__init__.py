"""Finding every checkable mention in a model's answer, with its span in the ORIGINAL text.

``scan(text, locale)`` returns the numbers, number words, multiples, dates and times, quotes,
@handles, e-mail addresses and URLs a reader would see in ``text``. It makes no judgement about
evidence: another module decides whether each mention is backed. Values are read with
``rulekit.numbers.parse_number`` and ``rulekit.dates.parse_claimed_date``; nothing here re-does
their work.

What the reader sees (``clean``): HTML character references decoded (``&nbsp;``, ``&#8239;``),
NFKC (fullwidth forms), format characters dropped (zero-width spaces and joiners, BOM, bidi
marks, soft hyphens) and the other characters that show nothing (variation selectors, the
combining grapheme joiner, Mongolian free variation selectors, Hangul fillers: "12\ufe0f96" is
1296), an accent on a digit dropped, every no-break or thin space made U+00A0 (the one space that may group
digits in any locale; a plain space groups only in locales that group with a space), digits of
any script read as ASCII digits, other number characters read by their Unicode value (``➎⓿⓿``
500, ``Ⅻ`` 12, ``፭`` 5; not 〇 nor CJK numerals, read by the CJK reader), Markdown emphasis inside
a number dropped (``**1**,299``, ``1,**299**``), markup between digits dropped (inline HTML tags
in any case and comments, the empty "<!-->" too, paired emphasis, code and strikethrough marks, a backslash: ``$5<b>00</b>``,
``$5*00*``, ``5`00```, ``5\\00`` are 500; not a cell or a line break, nor a single ``*``), underscore emphasis around words read as asterisks (``_July 2_``, ``__9 pm__``:
an underscore is a word character and would hide the date; snake_case stays) and a capital O
between digits read as a zero (``1O0``, ``2O26``), and so are capital Os ending a number no
letter touches (``$299O``, ``2OOO``; not ``B52O``), and a lower-case l or capital I right after a
currency sign is a one (``$l,299``, ``$I,299``). ``clean``
returns that text with a map back to the original; every mention's ``start``/``end`` are
original offsets, and ``mention.text == text[start:end]``.

Order of claims: URLs, e-mail addresses and handles first (their digits are theirs), then dates
and clock times (their digits are theirs), then numbers, multiples and number words. Quotes are
found independently: a number inside a quote is still a number, flagged ``quoted``.

Decisions on ambiguous text, each pinned by a case in ``tests/cases/scan/``:

- A lone "one" is a pronoun ("the cheaper one", "one of the best", "no one", "one day") unless
  it is "one of/in/out of N" with N a number, "one to N", or it stands before a unit-like noun
  ("one hour", "one item", "one percent"; ``ONE_NOUNS``), also after "only" ("only one post";
  "the only one" stays a pronoun). "one" before a person (customer, user, person, follower,
  visitor, subscriber) and a verb of saying or feeling ("said", "wrote", "loved",
  "complained"; ``_ONE_SAID``), maybe after an adverb or a name between commas, is a certain
  person, not a count ("One customer said it was great", "but one customer said it runs
  small", "One customer, Dana, said", like "One reviewer loved it"); before another verb ("One
  customer has reviewed it", "bought", "returned it"), after "only" or "just", with "so far"
  after it, or before "in", "of", "per" or a number ("One customer in 5") it is 1. "a"/"an"
  count only inside "a dozen", "a hundred", "a
  thousand", "a million", "half a dozen", "one and a half". "first" and "second" are read only
  as ranks (an adverb and a unit of time far more often than an ordinal): directly before place,
  best, most, highest, largest, ranked, spot, position... ("second place", "the second-best
  post", not after "a": "for a second most people left"), before "overall", "in the ranking(s)"
  or "in the standings" ("first in the rankings"), after ranked, finished, placed, came (in)
  ("ranked second", "came in second"), or at the end of a clause whose verb of finishing
  (finished, came, placed) stands up to three words before ("finished the race first"; not after
  "a": "came back in a second"); "one" after "number" is a rank, an ordinal like "#1" ("ranked
  number one", "the number one reason"); "third" and up are ordinals, except after "a"/"one" (a
  fraction), and before a hyphen only before such a word ("fourth-best", "fifth-ranked"; not
  "third-party"). A fraction before "of" is a share, a ``word_number`` with the fraction's value
  ("a quarter of" 0.25, "two-thirds of" 2/3, "a third of" 1/3); after "by" it is a change, the
  percentage ("up by a third" 33.3...%, "rose by a quarter" 25%; and "um ein Drittel", "d'un
  tiers", "en un tercio", "di un terzo", "em um terço", "met een derde"); otherwise ("a third time",
  "the third quarter") it is not read.
- A number word before "-word" is read, the word being context: "a fifty-dollar gift card" (50
  USD), "a two-year warranty", "twenty-four-hour"; number words joined by hyphens are one number
  ("two-million-dollar", "one-and-a-half"), and a whole number, a hyphen and a word for 10-99 is
  dollars and cents ("fifty-nine-ninety-nine" 59.99; "ten-twelve", "nine-fifteen" are read so
  too and need that figure, except where the hour alone would be a time: "we open at
  ten-thirty" is 10:30, see clock words). Not read: ordinals and zero before a hyphen (third-party,
  zero-waste), fractions (two-thirds without "of", one-half), two-factor, two-step, two-way,
  two-time, words in -ed (three-putted), and the idioms fifty-fifty, twenty-four-seven,
  nine-to-five, one-on-one, one-to-one. "one-X" is 1 when X is a unit-like noun or "day",
  whatever stands before ("a one-year warranty"), but not one-off, one-time, one-click,
  one-size, one-piece, one-shot, one-page.
- A lone "one" is also the number 1 before "left", "remaining", "available", "in stock", "N
  business/working/calendar day(s)", and before "day" after in/within/for/than/only/just/by/
  take...; "One day we will" is not read.
- A discount written as a share ("half off", "half price", "half-price", "a quarter off", "save
  a third") is a percentage (50, 25, 33.3...), compared with stored discounts; before "of" a
  share stays a fraction (0.25). "a baker's dozen" is 13; "a score of <word>" is 20. Magnitude
  words ("hundreds of", "thousands") are not read here: the sweep judges them as bands
  (``rulekit.sweep_amounts``, rule 12).
- "three" or "3" after "from" at the end of a clause or before a comma, right after a count of
  shots ("4 of 9", "3-for-7", "41%") or in a clause that says shooting (shot, threes,
  3-pointers, from the field), is the three-point line, not read ("Curry was 4 of 9 from
  three"); after a change word it is a number ("grew to five from three", "12%, up from 3"),
  and so is "from three and five from two". "the front nine", "the back nine" (golf) are
  not 9.
- Number words are read in the locale's own language only: English everywhere; German (de);
  French, Spanish, Italian, Portuguese and Dutch (fr, es, it, pt, nl: ``_ROLE_WORDS`` in
  ``rulekit.scan.words``), compounds included ("quatre-vingt-dix-neuf", "soixante et onze",
  "treinta y dos", "mil e trezentos", "milleduecento", "tweeëntwintig", "dreizehnhundert",
  "zweihundertundzwanzig"). The article that is also 1 (un, une, uno, una, um, uma, een, één,
  ein, eine) is never read alone: only before a hundred, a thousand, a scale or a dozen ("un
  million", "eine Million", "ein Dutzend") or after tens ("vingt et un"). A bare hundred or
  thousand before or after thanks and "times" is hyperbole, not read ("mille fois merci",
  "cent fois", "grazie mille", "mil gracias", "tausend Dank", "duizend keer"); French "neuf"
  meaning new ("état neuf", "est neuf.", "quoi de neuf") and Italian "sei" meaning "you are"
  ("sei sicuro?") are not 9 and 6; Dutch "ten minste", "ten slotte" are not 10; "un cent" (fr)
  is a coin. A number word right after digits is read ("96 quarante" holds 40; "96-thirteen" 13),
  except a hundred, a thousand or a scale, which are the digits' ("5 mil", "99 cents"). Per cent words (pour cent, por ciento, per cento, por cento, procent) make a
  percentage. A scale word after digits scales them ("5 mil euros" 5000 EUR, "3 milioni").
- Multiples in these languages: "N fois plus", "N veces más", "N volte più", "N vezes mais", "N
  keer zo(veel)", "N-mal so", "dreimal so", "4배" (digits or words before a comparative; "deux
  fois" alone is a count), and the words doublé, el doble, duplicado, il doppio, raddoppiato, o
  dobro, dobrou, verdubbeld, verdoppelt, doppelt so, das Dreifache (``_ROLE_MULTIPLES``).
  "la moitié", "la mitad", "die Hälfte" are the share 0.5; "la mitad del precio", "la moitié du
  prix" a 50 % discount. A fraction after the article is a share before the language's "of"
  ("ein Viertel Ihrer" 0.25, "un quart de", "una quinta parte de", "um terço das"; not "ein
  Viertel nach drei", "un quart d'heure", "un cuarto de hora"). German "zweieinhalb",
  "eineinhalb", "anderthalb" are 2.5, 1.5, 1.5, and a number word after a scale is part of its
  number ("zwei Millionen vierhunderttausend" 2,400,000). Ordinals in the locale's language:
  "1er", "1re", "2e" (fr), "1º", "1.º", "1.er", "1ª" (es, it, pt), "2°" and German "1." only
  before a word of rank ("2° posto", "1. Platz"), 1位 (ja), 1위 (ko).
- "half" is 0.5 before "of", an article or a possessive ("half the posts", "half of them"), or
  after "by", "in", "than", "about", "nearly", ...; "half as many/much/..." is the multiple 0.5;
  "the first half", "half-hearted" are not numbers. "double"/"triple" are multiples only where
  they compare ("double the average", "nearly double", "doubled", "sales doubled."), not in
  "double room" or "double-check". "N times" is a multiple before a comparative ("3 times
  higher", "three times as many") and a count otherwise ("posted 3 times").
- Chinese numerals need a unit character (十百千万亿) and two characters ("十五", "三百五十",
  "两万"), or a classifier after a single digit other than 一 ("三个", "两天"), or 〇/零 in a
  digit-by-digit number ("二〇二六"). Idioms are not numbers: 千万, 万一, 万万, 一定, 一直, 一些,
  一样, 一起, 十分 (but 十分钟), 百分百, 十万火急, weekdays (星期三, 周一) and others in
  ``CJK_IDIOMS``. 一半 is 0.5 (a computed share); 半 alone (半小时) is not read. 倍増, 倍增,
  倍になった are the multiple 2 and 半減, 半减, 减半 the multiple 0.5, like "doubled", "halved"
  (not after a number, 3倍になった, which the digits' reader takes, nor after 数, 何, 幾).
- CJK discounts, shares and scales: X折 (七折, 7.5折, 七五折, 五到七折) is the ratio paid (0.7),
  like 九成 and 3成 (0.3); 割 (ja) is a percentage (3割 30 %, 4割引 40 % off, 三割五分 35 %);
  半价, 半額, 반값, 打对折 are 50 %. 点 is a decimal point in numerals (三点五 3.5, 四点六万
  46,000, 百分之四点九 4.9 %, 一点五倍 1.5x) except in a clock time (三点十分) and in 一点 ("a
  little"). A digit before 十百千万亿 or Korean 백천만억 is scaled (3百 300, 2千3百8十 2380,
  3万5 35,000, 3만원 and 3 만원 30,000 KRW, 1만 2800원 12,800, 1억 2천만 원). Not read: 不折不扣,
  百折不挠, 一波三折, 七折八扣, 打折/折扣 without a number, 三折叠 (folding); 割合, 割り勘, 割り算;
  만약, 사과만, 3개만, 천천히, 백화점.
- Clock times ("21:00", "9 pm", "9:30 p.m.", "21 Uhr", "15.00 Uhr", "21h30") are kind ``date``
  with ``day`` None, ``time`` set and ``normalized`` "21:00"; a date followed by a time is one
  ``date`` mention with both, and so is a time, "on" and a date ("8 pm ET on July 4"), except a
  date without a year that starts with its weekday ("08:01 on Thursday 17 April" is two
  mentions: the sweep checks the weekday at the start of the date's mention). "24:00" is 00:00.
  Both ends of "09:00-17:00", "9am-5pm", "9h-17h" are times. An hour alone before "h", maybe after a space ("à 21h", "à 21 h",
  "às 15h", "de 9h à 17h") is a time after a word that puts one there (à, vers, às, um, alle...)
  or before a range's other end, with or without minutes ("19h-22h30"),
  or as an end of a range of such hours, never in English: "en 2h", "sous 48h", "24h/24" are
  durations. A zone after a time alone ("9 pm (UTC+8)", "21:00 UTC", "13:00 GMT-5") is part of
  the mention and ``time`` is that time of day in UTC, aware (``normalized`` "13:00+00:00"). No
  zone is further from UTC than -12:00 or +14:00: a larger offset is no zone ("GMT-18"), and
  after a day and a time it is the end of a range of hours ("2026-09-09 14:00-18:00" is the day
  at 14:00, then 18:00; "...T14:00-05:00" is one instant).
- Clock words: "noon", "midday" 12:00, "midnight" 00:00 ("12 noon", "twelve noon", "12 midnight"
  too); a number word one to twelve with am/pm ("nine pm", "ten a.m.") is that time. Without
  am/pm an hour word is a time only where the same hour in digits is one: after "at", "until",
  "till" and a word of opening or closing, or with "sharp" ("we open at nine" 09:00, "we close
  at six tonight" 18:00, "open until ten" 22:00, "at eight sharp"), and after "at", "by",
  "around"... with the half of the day after it ("by nine this evening" 21:00); "at nine
  dollars", "one of nine", "looked at nine stores" stay numbers. Its minutes may follow, ten to
  fifty-nine in words ("we open at ten-thirty" 10:30, "close at five forty-five tonight" 17:45).
  British "half ten" is 10:30 after at, until, from, by... ("we close at half ten").
  Opening hours in words are read as in digits ("open nine to five", "open from nine to six",
  "open 9 to five", "Saturday: nine to five", "we open at 9 to 5", "open at nine to five";
  "looked at 9 to 5 stores" stays numbers). Opening hours followed by a word count it, and are
  numbers, unless the word is one of days, a zone or a conjunction ("open 9 to 5 daily", "9 to 5
  Monday to Friday", "9 to 5 ET"; ``_HOURS_NEXT`` in ``rulekit.scan.when``) or the end has
  minutes or pm: "we open 9 to 5 new stores", "at 9 to 5 locations" are counts. "at" counts at
  the start of the text or after a bracket or a line break too ("At 8 sharp we open").
  "noon"/"midnight" are read lower-case or in capitals, capitalised only at the start of a
  sentence before a lower-case word ("Midnight is the cut-off"); capitalised inside a sentence
  or before a capitalised word they are a name ("the Midnight jacket", "Midnight Express");
  before a colour ("midnight blue") they are not read.
- East Asian clock times: digits or numerals before 点/點, 时/時, 시, with minutes (15時30分,
  3点20分, 三点二十分; numeral minutes holding 十 need no 分: 三点二十), 半/반, 一刻/三刻, 钟/整,
  and the word for the half of the day before them, which is part of the mention (上午, 午前,
  오전: am; 下午, 午後, 오후: pm; 中午 1-5 pm; 晚上 6-12 pm, 晚上12点 00:00). 時間, 시간, 시즌,
  시리즈 are not hours. 点 is also "point": an hour up to 12 before it, with no minutes, no half
  of the day, nothing like 在/到/天 before and nothing like 前/后/送/到 after, is not a time
  (以下3点 is the number 3); 一点 needs minutes or a half of the day (快一点); 3点5 and 三点五
  are not times (三点五 is 3.5); in Japanese 点 counts items and is never an hour. An hour up
  to 12 without a half of the day is read as written (3点 is 03:00).
- Dates: "28 de agosto de 2026" where the locale's long date pattern says 'de' (es, pt, gl);
  numerals 七月二十九日 (--07-29), 二〇二六年七月二十九日; a year first with a day of one digit,
  "2026/11/3", "2026-11-3" (and "2026.11.3" in zh, ja, ko only: elsewhere a version); Korean "2026. 7. 29." (the last dot optional only in
  ko); "29.7." (--07-29) where dates are written day.month. and the decimal mark is a comma
  (de_DE, de_AT), only after a word that puts a date there (am, bis, vom, zum, seit, den, a
  weekday): "bei 4.5." is a decimal, "Abschnitt 3.1." a section. A month and its day split by
  emphasis or an inline HTML tag are one date ("_July_ 2", "July *2*", "**July** 2",
  "<i>July</i> 2", "<em>July 2</em>"), day first too ("*2* July", "_2_ July", "<b>2</b> July";
  the mention's text keeps the marks between them, "July** 2"). A month is read before its day
  whatever stands before the month: a line break, a colon, an HTML tag ("ships on:\nDecember
  3", "<td>November 3, 2026", "Ships:**December 3**"). "1. December 3, 2026" is a list number,
  then a date, not the 1st of December (where dates are written day.month., de_DE, only with a
  year after the second day: "am 1. Dezember 3 Pakete" is the 1st). Dates without a year ("July 29")
  have ``day`` None and ``normalized`` "--07-29"; a month and a year ("July 2026") "2026-07". A
  date that cannot exist (31 February 2026, a wrong weekday) is still a ``date`` mention, with
  ``day`` and ``normalized`` None.
- URLs: absolute (http, https, ftp), ``www.`` hosts, hosts without a scheme on any ending
  when a path follows (``secure-login.bank/reset``; not file names such as ``config.json/...``)
  and alone on a top-level domain of ``rulekit.scan.tlds`` (not ``README.md``, ``app.py``), every
  link destination whole as written (``[text](...)``, ``[ref]: ...``, ``<scheme:...>``,
  ``href="..."``; docs/sweep.md rule 9), and relative links: a Markdown link target
  (``[text](/path)``) or a path of two or more segments (``/insights/posts/42``). A
  single-segment ``/help`` in prose is not read as a link.
- Quotes (docs/sweep.md rule 7 lists every pair): "...", “...”, „...“, ”...”, «...», »...«, ‹...›, ‘...’, ‚...‘, 「...」, 『...』 and
  '...' (a straight ' opens only after a space, a bracket or a colon and before a non-digit,
  closes before no letter or digit, and is an apostrophe before a letter: doesn't, O'Brien),
  emitted when the quoted text has at least 2 words or 6 characters after squashing (``squash``:
  no white space, no quote marks, NFKC, casefolded), whatever their length; a shorter one only
  when a verb of saying stands before it (she called it "Wow", he wrote: "No") or after its
  closing punctuation ("No," he said): otherwise it is a term or a scare quote (the "Pro"
  plan). Quotes of different families nest (“He said ‘never again’”: two quotes); within one
  family the innermost pair wins. A quote does not cross a blank line; an unclosed quote is not a mention; a straight "
  right after a digit does not open a quote (12" is an inch mark), nor does ‘ after a letter.
  LaTeX-style ``...'' is a quote too. Markdown marks a quote only when it is introduced as
  someone's words (a verb of saying, "a review:", or a name and a colon: "Dana wrote:", "As
  Dana put it", "Dana:"): each line of a blockquote ("> ...") after such a line, from its ">";
  an emphasis (*...*, **...**, _..._) after one and a colon on its line, which after a name
  must read as a sentence (end with . ! ? or hold four words); a code span (`...`) after a
  verb of saying, with or without a colon ("calls" and "posts" need an object: "called it
  `meh`"), and a fenced code block (```) after one. HTML <q>...</q> is a quote like quotation
  marks; <blockquote>...</blockquote> when introduced like a Markdown blockquote; their tags
  are not their words. A bare "> ..." line is the
  answer's aside, "Price: **$79**" its label, "I'd say *yes*" stress: not quotes.
- Code (``rulekit.scan.code``): inside a fenced block or an inline code span a pair of straight
  quote marks is a string literal, no quote; a decorator (first on its line of a block, or
  opening a span before a call or a dotted name) and a command's @file argument ("-d
  @body.json", "file=@photo.jpg") are no handles; a path on a file system's root
  ("/usr/local/bin/poll") is no relative link. Its numbers, hosts, links and e-mail addresses
  are read as anywhere. Anywhere, "git@github.com:acme/sdk.git" and "ssh://git@host/x.git" are
  one ``url`` each, not an e-mail address.
- Handles: ``@`` plus [A-Za-z0-9_.] with at least one letter or underscore, not preceded by a
  character of an e-mail address. A name longer than 30 characters is still a handle (emitted
  whole, so that its digits are never loose numbers). In text that is not all ASCII, handles,
  e-mail addresses and hosts without a scheme are read with letters of any script
  (``@José_García``, ``поддержка@пример.рф``, ``пример.рф/reset``, a lookalike ``@ѕhop``),
  case-folded, except scripts written without spaces (Han, kana, Hangul, Thai...), which end
  them (``请发邮件至help@shop.example。`` holds ``help@shop.example``; ``例えば@マーク`` no
  handle).
- An amount and its cents written apart ("forty-nine dollars and ninety-nine cents", "$12 and
  5 cents") are one mention, 49.99 and 12.05, with the amount's currency; cents alone ("99
  cents", "50 pence") are 0.99 and 0.50. A currency after a CJK scale is the amount's (1.2万元).
- Currencies: ``currency`` is an ISO code when the locale settles what a sign or word names,
  else the family it names (``CURRENCY_FAMILIES`` in ``rulekit.scan.figures``: "dollars or
  pesos", "dollars", "yen or yuan", "yuan", "pounds", "kronor or kroner", "rupees", "pesos";
  lower-case words, never three capitals), and None only where no currency is written. A
  family is settled by the locale's own country first ("$" is CAD in en_CA, "Rs" INR in en_IN,
  元 TWD in zh_TW), then by the one currency the locale writes with the bare sign ("$" is USD in
  en_US and de_DE, "¥" JPY in ja_JP); "$" in en_GB or fr_FR and "¥" in en_GB stay families.
  US$, C$, A$, NZ$, HK$, NT$, S$, MX$, R$ name their dollar. Words:
  dollars/bucks/dólares/دولار/ドル/달러 (the dollar family), US-Dollar/美元/米ドル (USD),
  pound(s) (pounds), quid/英镑 (GBP), euro(s)/欧元/ユーロ/유로, yen/日元/円, yuan/人民币 (CNY),
  港币/港元 (HKD), rupee(s)/रुपये (rupees), Franken (CHF), peso(s) (pesos: "89.99 pesos" is
  MXN in es_MX, any peso in en_US), reais (BRL; "real" too, in Portuguese only: "12 real
  reviews" is no amount). After an amount, an ISO code in capitals, a common code in any case
  ("49.99 eur"; ``_LOWER_CODES``, no English words such as all, try, top) and a crypto ticker
  (BTC, ETH, USDT...). A sign of one currency babel does not read in the locale is that
  currency (₽ RUB, ₿ BTC); another currency sign (Sc) is its own currency, which no evidence
  holds (₤, ₳, ¤). Scale words after digits: thousand, hundred ("$5 hundred", "5-hundred"),
  thou, K and mil after a space only after a currency ("$5 K" 5000, "$5 mil" 5 million in
  English; "a 5 K run" is 5, "5 mil euros" in Spanish 5000), and grand after a currency or at the end of a clause ("$5 grand", not "5 grand
  pianos" nor "a $35 grand total" or "grand prize").
- Roman numerals in Latin capitals are numbers only right before a currency word or a word of
  stock ("XII left", "D dollars" 500 USD; ``_ROMAN_AFTER`` in ``rulekit.scan.words``): never a
  lone "I" ("I left"), nor after a capitalised word inside its sentence ("World War II left"). ``currency_codes`` gives the ISO codes a value may stand for. A dash after the locale's decimal mark stands for no cents and belongs to the amount when
  a currency stands after it or before the digits ("1.299,– €", "49,- EUR", "€ 49,–", "49.–
  CHF" in de_CH), also with a scale between ("1.299,– Mio. €"), and when it ends the first end of
  a range, which then takes the second end's currency ("1,- bis 5,- €", "1,-–5,- €"); without
  one the number ends before the mark ("1.299,–" is 1299). Where the decimal mark is a comma and
  the group is not a space (de_DE), a plain space groups thousands only before the comma and
  two decimals or that dash ("1 299,– €" 1299, "12 345,50 €"; "Seite 1 299" is 1 and 299).
- Lakh and crore abbreviations ("1.2L", "2 Cr", "₹2 Cr.") are scales only in South Asian
  locales (territory IN, PK, BD, NP, LK); elsewhere "1.5L" is a glued token (litres). "lac(s)"
  is a lakh, and "mn" is a million after a space too ("2.5 mn"). A lower-case "m" glued to an
  amount is a million after a currency only ("£1.2m"; "5m" is a glued token, metres). Before
  the euro a spaced "k", "M" or "T" is a scale ("57,2 M€", "45 k€"; "45 T€", "45 TEUR" are
  thousands, German Tausend).
- Units written once for many numbers (``rulekit.scan.tables``): a Markdown table column
  headed "Views (k)", "Revenue ($M)" or "CTR (%)" (a header row, then a delimiter row) reads
  the plain numbers of its cells in that unit (12.3 is 12300 with ``scale`` 1000, 3.1 is
  3100000 USD, 4.6 a percentage), and so does a label for the numbers after its colon, to the
  end of its sentence or line ("Revenue ($k): 3,100"). A number that writes its own scale,
  percent sign or currency keeps it; lower-case "m" is no unit; a bracket in prose is none.
- Per mille is a percentage: ``4.6‰`` has ``percent`` set and ``value`` 0.46 (a tenth of
  what is written), so that it compares with the percentages it is a tenth of.
- Fractions: a vulgar fraction (½ ¼ ⅓ ... ⅞, ⅒) or digits around U+2044 FRACTION SLASH is one
  number ("½" 0.5, "⅛" 0.125; typed "21⁄2" is 21/2, as Unicode reads it). After a whole number,
  in the same run or after a space, it is the fraction part: "2½", "2 ½", "2¹⁄₂" are 2.5
  ("2½" cleans to "21⁄2": the offset map tells which digits came from the ½). A "/" fraction is
  read only so, after a whole number and a space, proper, with a denominator up to 16 ("3 1/2
  stars" 3.5); "1/2" alone stays two numbers (a ratio or a date). A fraction whose decimals do
  not end (⅓, 2⅔) has the 28-digit quotient as value and decimals 0, like "a third of": it
  matches no rounded figure (fail closed). Scale, percent and currency apply ("2½ million",
  "$2½", "12 ¾%"). Alone before "off"/"price" or after "save" it is a discount ("½ price" 50 %).
- A leading decimal point is read after a space, the start, an opening bracket or quote, a sign
  or a currency sign (".12M" 120000, "$.99", "(.5%)", "-.25"); not after a letter, a digit or
  a dot ("v.2", "No.5", "...5", "2026.5").
- ``4K``, ``8K`` (one digit and a capital K) are glued tokens; ``12K``, ``12k``, ``1.5K`` are
  12000, 12000, 1500. ``B`` and ``T`` are billion and trillion only after a currency (``$2B``).
- A digit run longer than 200 characters, or a grouping that long (1,234,234,...), is one
  ``number`` with ``value`` None.
- "1.2.3", "192.168.0.1" (dots only, three runs or more), "555-123-4567" (three runs joined by
  hyphens) and "555-1234" are glued tokens: each run is a number with ``glued`` set and the
  whole as ``token``. Digits touching letters (RC-500, 500ml, COVID-19, Q3) are ``glued`` too,
  with the word-like token around them; "Model 3" is not (the word is only context). The
  square or cube of a lower-case unit of length after a number, a slash, a bracket or "per"
  ("1,850 ft²", "€3,000/m2", "per m²", "120 m³") is no number: the unit's (the BMW M3's 3 is).
- Ordinals: 1st, 2nd, 3rd, #3, No. 3, Nr. 3, 第3, 第三, "third" (not "no 3": a determiner).
- "May" and "March" are months only when capitalised ("you may 5" is not a date).
- Ranges "10-12", "10–12", "10 to 12", "between 10 and 12", and in their language only
  "entre 8 y 12" (es), "entre 8 et 12" (fr), "entre 8 e 12" (pt), "tra 8 e 12" (it),
  "zwischen 8 und 12" (de), "tussen 8 en 12" (nl) (``_BETWEEN``), and
  "de 8 a 12" (es, pt), "da 8 a 12" (it), "von 8 auf 12" (de) ("a" or "auf" alone links
  nothing: ``_FROM_TO`` in ``rulekit.scan.figures``): two mentions linked by
  ``range_with``; a percent sign, a currency, a scale or a multiple written on one end applies
  to the other ("10-12%", "$10-12", "1-2 million", "2-3x"). A change then a level is no range:
  "fell 12.5% to 48,210" (a word of ``FALL_BEFORE``, ``RISE_BEFORE`` or ``CHANGED_BEFORE``
  before "to", when the level has no percent sign: "fell 8 to 10%" stays a range), and in French, German, Spanish, Italian, Portuguese and Dutch a word of
  ``CHANGE_OTHER`` before "à", "bis", "tot"... when the level has no percent sign ("baissé de 8 %
  à 48 210", "gestiegen um 8 % bis 48.210"; "baissé de 8 à 10 %" stays a range).

``before``/``after`` are up to three words of the cleaned text around the mention (around the
whole token for glued digits), without the punctuation around them, lower-cased; in CJK text a
character counts as half a word.

Linear time: the text is read in a few passes, each a pattern that starts with a literal or a
character class (so ``re`` skips positions that cannot start a match) or is anchored at a
position found by such a pass; no pattern can backtrack over more than a bounded window; look
backwards (the month before "29", the local part of an e-mail address) matches a reversed
window of bounded size. Dates, times and numbers are all read in one pass over the runs of
digits. The work per mention is constant, so a text made only of mentions costs a constant
per mention (see benchmarks/bench_scan.py). Patterns are compiled at import; per-locale data
(month and weekday names, grouping) are built once per locale and cached.
"""

from __future__ import annotations

from rulekit.scan.assemble import scan
from rulekit.scan.base import KINDS, Mention
from rulekit.scan.cjk import CJK_IDIOMS
from rulekit.scan.reader import clean, squash
from rulekit.scan.words import ONE_NOUNS

__all__ = ["CJK_IDIOMS", "KINDS", "ONE_NOUNS", "Mention", "clean", "scan", "squash"]
