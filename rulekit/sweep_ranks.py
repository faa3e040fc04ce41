"""Ranks said in German, French, Spanish, Italian, Portuguese, Dutch, Japanese, Chinese and
Korean ("auf dem 1. Platz", "auf Platz 1", "Rang 1", "en 1re position", "classé 1er", "el 1.º
puesto", "en el puesto 1", "al 1º posto", "em 1º lugar", "op de 1e plaats", 1位, 第1名, 1위): held
to the evidence's ranks as "ranked 1st" and "took 1st place" are (docs/sweep.md, rule 3).

``local_ranks`` gives the start of the digits of each such rank in the text, and whether it is
said as one beyond doubt ("auf Platz 3": a rank, free like "ranked 3rd" when the evidence holds
no rank field) or only maybe ("Platz 3" alone is a seat as often: "Wagen 12, Platz 3"; it is
held to the evidence's ranks when it has any, and otherwise stays a small integer). A rank needs
a word of ranking beside the number: an ordinal alone ("votre 3e relance", "das 3. Mal") is no
rank, and one before a month ("1.º de diciembre", "1er décembre") is a date, read by the
scanner before this runs. ``unheld_rank_words`` reads the same ranks said in words ("auf dem
dritten Platz", "en tercer puesto"), which the scanner does not read outside English. Each
language is read only when the text holds one of its cue words (a substring test on the
lower-cased text), so most answers pay one test per language."""

from __future__ import annotations

import re

from rulekit.findings import Finding, _new_finding

_N = r"(\d{1,2})"     # the only group of each alternative: ``match.lastindex``
# After the digits, an ordinal's ending, by language: French "1er", "1re", "1ère", "2e",
# "2ème", "2nd", "1ᵉʳ"; Spanish, Italian and Portuguese "1.º", "1º", "1ª", "1°", "1.er", "3er";
# Dutch "3e", "1ste", "2de".
_ORD = {
    "fr": r"(?:er|re|ère|ere|e|ème|eme|nde?|ᵉʳ|ʳᵉ|ᵉ)",
    "es": r"(?:\.?[ºª°]|\.?er|\.?ra|\.?[oa])",
    "it": r"(?:\.?[ºª°]|[oa])",
    "pt": r"(?:\.?[ºª°]|[oa])",
    "nl": r"(?:e|ste|de)",
}
_END = r"(?![^\W\d_])"
_SP = r"[ \u00a0]+"

# Beyond doubt: an ordinal before a noun of ranking, or a number after a word that says a rank.
_SURE = {
    "de": re.compile(
        rf"(?i)(?<![\w.])(?<!im )(?<!im\u00a0){_N}\.{_SP}(?:Platz|Platzes|Rang|Ranges|Stelle|"
        rf"Platzierung)(?![\w])"
        rf"|(?<![\w])(?:auf|an){_SP}(?:Platz|Rang|Position|Stelle){_SP}{_N}(?![\d.,]\d)"
        rf"|(?<![\w])(?:Rang|Platzierung){_SP}{_N}(?![\d.,]\d)"),
    "fr": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['fr']}{_END}{_SP}(?:place|position|rang)(?![\w])"
        rf"|(?<![\w])(?:class[ée]e?s?|termin[ée]e?s?|finit|arrivée?s?|arrive){_SP}"
        rf"(?:(?:en|au){_SP})?{_N}{_ORD['fr']}{_END}"
        rf"|(?<![\w])(?:position|rang){_SP}(?:n°{_SP}?)?{_N}(?![\d.,]\d)"),
    "es": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['es']}{_END}{_SP}(?:puesto|lugar|posición|posicion)(?![\w])"
        rf"|(?<![\w])(?:clasificad[oa]s?|qued[óo]|termin[óo]){_SP}(?:(?:en|el){_SP})*"
        rf"{_N}{_ORD['es']}{_END}"
        rf"|(?<![\w])(?:puesto|posición|posicion){_SP}(?:n\.?º{_SP}?)?{_N}(?![\d.,]\d)"),
    "it": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['it']}{_END}{_SP}"
        rf"(?:posto|posizione|classificat[oaie]|piazzament[oi])(?![\w])"
        rf"|(?<![\w])posizione{_SP}(?:n\.?{_SP}?)?{_N}(?![\d.,]\d)"),
    "pt": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['pt']}{_END}{_SP}"
        rf"(?:lugar|posição|posicao|colocad[oa]|classificad[oa])(?![\w])"
        rf"|(?<![\w])(?:posição|posicao){_SP}(?:n\.?º{_SP}?)?{_N}(?![\d.,]\d)"),
    "nl": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['nl']}{_END}{_SP}(?:plaats|positie|plek)(?![\w])"
        rf"|(?<![\w])op{_SP}(?:plaats|positie|plek){_SP}{_N}(?![\d.,]\d)"),
}
# Maybe a rank: a number after a noun that names a seat as often ("Platz 3", "place 3", "plaats
# 3"; not "mettre en place 3 règles").
_MAYBE = {
    "de": re.compile(rf"(?i)(?<![\w])Platz{_SP}{_N}(?![\d.,]\d)"),
    "fr": re.compile(rf"(?i)(?<![\w])(?<!en )place{_SP}(?:n°{_SP}?)?{_N}(?![\d.,]\d)"),
    "nl": re.compile(rf"(?i)(?<![\w])(?:plaats|positie){_SP}{_N}(?![\d.,]\d)"),
}
# A word of a seat in the clause of a rank's number, before or after it: "Wagen 12, Platz 3",
# "Sie sitzen auf Platz 3", "Rang 1, Reihe 5", "voiture 12, place 3": no rank (``_seat_near``).
_SEAT = re.compile(r"(?i)(?<![\w])(?:wagen|waggon|reihe|sitz\w*|abteil|gleis|tisch|loge|voiture|"
                   r"rang[ée]e|si[èe]ges?|wagon|assis|coche|asiento|fila|carrozza|vagone|"
                   r"poltrona|assento|vag[ãa]o|rij|stoel|zitplaats|rijtuig)(?![\w])")
_CLAUSE_STOPS = ".;!?\n"
# Ordinals in words, by language, each a stem and the endings it takes ("dritt" + e, en, er,
# es, em), up to twelve: read before a noun of ranking only (``unheld_rank_words``).
_WORD_ORDINALS = {
    "de": ("(?:erst|zweit|dritt|viert|fünft|sechst|siebt|siebent|acht|neunt|zehnt|elft|zwölft)"
           "(?:e|en|er|es|em)", ("erst", "zweit", "dritt", "viert", "fünft", "sechst",
                                 "sieb(?:en)?t", "acht", "neunt", "zehnt", "elft", "zwölft")),
    "fr": ("(?:premi(?:er|ère|ere)|second(?:e)?|deuxième|troisième|quatrième|cinquième|sixième"
           "|septième|huitième|neuvième|dixième|onzième|douzième)s?",
           ("premi", "second|deuxi", "trois", "quatri", "cinqui", "sixi", "septi", "huiti",
            "neuvi", "dixi", "onzi", "douzi")),
    "es": ("(?:primer|tercer|(?:primer|segund|tercer|cuart|quint|sext|séptim|septim|octav|noven"
           "|décim|decim|undécim|duodécim)[oa])s?",
           ("primer", "segund", "tercer", "cuart", "quint", "sext", "s[ée]ptim", "octav", "noven",
            "d[ée]cim", "und[ée]cim", "duod[ée]cim")),
    "it": ("(?:prim|second|terz|quart|quint|sest|settim|ottav|non|decim|undicesim|dodicesim)"
           "[oaie]", ("prim", "second", "terz", "quart", "quint", "sest", "settim", "ottav",
                      "non", "decim", "undicesim", "dodicesim")),
    "pt": ("(?:primeir|segund|terceir|quart|quint|sext|sétim|setim|oitav|non|décim|decim)[oa]s?",
           ("primeir", "segund", "terceir", "quart", "quint", "sext", "s[ée]tim", "oitav",
            "non", "d[ée]cim")),
    "nl": ("(?:eerste|tweede|derde|vierde|vijfde|zesde|zevende|achtste|negende|tiende|elfde"
           "|twaalfde)", ("eerste", "tweede", "derde", "vierde", "vijfde", "zesde", "zevende",
                          "achtste", "negende", "tiende", "elfde", "twaalfde")),
}
_RANK_NOUNS = {
    "de": "Platz|Platzes|Rang|Ranges|Stelle|Platzierung",
    "fr": "place|position|rang",
    "es": "puesto|lugar|posición|posicion",
    "it": "posto|posizione|classificat[oaie]",
    "pt": "lugar|posição|posicao|colocad[oa]|classificad[oa]",
    "nl": "plaats|positie|plek",
}
# Verbs of finishing before an ordinal word ("wurde Dritter", "classé troisième", "quedó
# tercero", "si è classificato terzo", "ficou em terceiro", "eindigde als derde"), maybe with
# the word for "in" or "as" between; and the cue words that gate them.
_RANK_VERBS = {
    "de": ("wurde|wird|landete|landet|endete|beendete|kam|ging|lief", "als"),
    "fr": ("class[ée]e?s?|termin[ée]e?s?|termine|finit|fini|arriv[ée]e?s?|arrive", "en"),
    "es": ("termin[óo]|qued[óo]|acab[óo]|lleg[óo]|clasific[óo]|clasificad[oa]s?"
           "|quedad[oa]s?|terminad[oa]s?|llegad[oa]s?", "en|como"),
    "it": ("arrivat[oaie]|classificat[oaie]|finit[oaie]|terminat[oaie]|chiuso"
           "|piazzat[oaie]", "in|come"),
    "pt": ("ficou|terminou|chegou|acabou|classificad[oa]s?|colocad[oa]s?", "em|como"),
    "nl": ("werd|eindigde|finishte", "als"),
}
_VERB_CUES = {"de": ("wurde", "wird", "lande", "ende", "geworden", "kam", "ging", "lief"),
              "fr": ("class", "termin", "fini", "arriv"),
              "es": ("termin", "qued", "acab", "lleg", "clasific"),
              "it": ("arrivat", "classificat", "finit", "terminat", "chiuso", "piazzat"),
              "pt": ("ficou", "terminou", "chegou", "acabou", "classificad", "colocad"),
              "nl": ("werd", "eindigde", "finishte")}
RANK_WORD_LANGUAGES = frozenset(_WORD_ORDINALS)
_RANK_WORDS = {lang: re.compile(rf"(?i)(?<![\w])({words}){_SP}(?:{_RANK_NOUNS[lang]})(?![\w])")
               for lang, (words, _) in _WORD_ORDINALS.items()}
_RANK_WORDS_AFTER = {
    lang: re.compile(rf"(?i)(?<![\w])(?:{verbs}){_SP}(?:(?:{between}){_SP})?"
                     rf"({_WORD_ORDINALS[lang][0]})(?![\w])"
                     if between else rf"(?i)(?<![\w])(?:{verbs}){_SP}"
                     rf"({_WORD_ORDINALS[lang][0]})(?![\w])")
    for lang, (verbs, between) in _RANK_VERBS.items()}
# The same with up to three words between, the ordinal ending its clause ("wurde im Rennen
# Dritte.", "est arrivée hier troisième,"), and German's perfect, the ordinal before
# "geworden" ("ist (im Rennen) Dritte geworden"); not an ordinal after an article or a word
# of a day ("wurde am Ersten", "sind die Ersten geworden": ``_NOT_BEFORE_RANK``).
_GAP_WORD = r"[ \u00a0]+[^\W\d_]+(?:['\u2019][^\W\d_]+)?"
_RANK_WORDS_LATE = {
    lang: re.compile(rf"(?i)(?<![\w])(?:{verbs})(?:{_GAP_WORD}){{1,3}}?{_SP}"
                     rf"({_WORD_ORDINALS[lang][0]})(?=[ \u00a0]*(?:[.,;:!?\n)]|\Z))"
                     + (rf"|(?<![\w])({_WORD_ORDINALS[lang][0]}){_SP}geworden(?![\w])"
                        if lang == "de" else ""))
    for lang, (verbs, _) in _RANK_VERBS.items()}
_NOT_BEFORE_RANK = frozenset("am zum zur im beim vom der die das den dem des ein eine einer le la "
                             "les au du el los las al del il lo gli i dal nel o a os as do da "
                             "no na de het".split())
_WORD_VALUES = {lang: tuple((re.compile(rf"(?i)(?:{stem})"), n) for n, stem in enumerate(stems, 1))
                for lang, (_, stems) in _WORD_ORDINALS.items()}

# Japanese 1位 (位 counts people in Chinese: 3位客人), Korean 1위, and Chinese 第1名, 第1位,
# 排名第1 (名 counts people after a bare number: 3名学生); 第三名 in numerals, whose mention (第三)
# starts at 第. Not a bound: 3位以内, 3位まで, 3위 안에, 3위권 ("the top 3": how many, not which).
_CJK_SURE = {
    "ja": re.compile(r"(?<![\d.,])(\d{1,2})[ \u00a0]?位(?![数數以]|まで)"),
    "ko": re.compile(r"(?<![\d.,])(\d{1,2})[ \u00a0]?위(?![해한권]|[ \u00a0]?(?:안|이내|까지))"),
    "zh": re.compile(r"第[ \u00a0]?(\d{1,2})[ \u00a0]?[名位]|排名[ \u00a0]?第?[ \u00a0]?"
                     r"(\d{1,2})(?![\d.,]\d)|(第)[一二三四五六七八九十]{1,3}[名位]"),
}
# The cue words of each language (lower case): its reader runs only when the text holds one.
_CUES = {
    "de": ("platz", "rang", "stelle", "position", "platzierung"),
    "fr": ("place", "position", "rang", "class", "termin", "fini", "arriv"),
    "es": ("puesto", "lugar", "posici", "clasific", "qued", "termin"),
    "it": ("posto", "posizion", "classificat", "piazzament"),
    "pt": ("lugar", "posi", "colocad", "classificad"),
    "nl": ("plaats", "positie", "plek"),
}
_CJK_CUES = {"ja": "位", "ko": "위", "zh": "第"}


def local_ranks(text: str, low: str, language: str) -> dict[int, bool]:
    """The start of the digits of each rank ``text`` says in ``language`` (or in Japanese,
    Korean or Chinese, in any locale), with whether it is said as a rank beyond doubt (True)
    or only maybe (False: "Platz 3", held to the evidence's ranks when it has any). ``low`` is
    ``text`` lower-cased, index for index."""
    found: dict[int, bool] = {}
    cues = _CUES.get(language)
    if cues is not None and any(cue in low for cue in cues):
        for match in _SURE[language].finditer(text):
            if not _seat_near(text, match.start(), match.end()):
                found[match.start(match.lastindex)] = True
        maybe = _MAYBE.get(language)
        if maybe is not None:
            for match in maybe.finditer(text):
                start = match.start(1)
                if start not in found and not _seat_near(text, match.start(), match.end()):
                    found[start] = False
    for lang, cue in _CJK_CUES.items():
        if cue in text and (lang != "ja" or language == "ja"):
            for match in _CJK_SURE[lang].finditer(text):
                found[match.start(match.lastindex)] = True
    return found


def _seat_near(text: str, start: int, end: int) -> bool:
    """Whether a word of a seat stands in the clause of ``text[start:end]``, up to 40
    characters before or after it ("Wagen 12, Platz 3", "Platz 3 in Reihe 5")."""
    head = text[max(0, start - 40):start]
    cut = max(head.rfind(stop) for stop in _CLAUSE_STOPS)
    if _SEAT.search(head, cut + 1) is not None:
        return True
    tail = text[end:end + 40]
    cut = min((at for at in map(tail.find, _CLAUSE_STOPS) if at >= 0), default=len(tail))
    return _SEAT.search(tail, 0, cut) is not None


def unheld_rank_words(text: str, low: str, language: str, ranks: frozenset[int]) -> list[Finding]:
    """A finding for each rank said in words in ``language`` before a noun of ranking ("auf
    dem dritten Platz", "à la troisième place", "en tercer puesto", "al terzo posto", "em
    terceiro lugar", "op de derde plaats"), after a verb of finishing ("wurde Dritter",
    "classé troisième", "quedó tercera", "ficou em terceiro"), ending its clause a few words
    after one ("wurde im Rennen Dritte.") or before "geworden" ("ist Dritte geworden")
    that is none of ``ranks``: read only where the
    evidence has a rank field (``Evidence.ranked``), as "took third place" is; the scanner reads
    no ordinal words outside English, so with no rank field they are not judged."""
    matches: list[re.Match] = []
    if any(cue in low for cue in _CUES[language]):
        matches += _RANK_WORDS[language].finditer(text)
    if any(cue in low for cue in _VERB_CUES[language]):
        matches += _RANK_WORDS_AFTER[language].finditer(text)
        for match in _RANK_WORDS_LATE[language].finditer(text):
            # (not "wurde am Ersten": a day; the word before the ordinal is no article)
            at = match.start(match.lastindex)
            before = text[max(0, at - 8):at].split()[-1:]
            if not before or before[0].lower() not in _NOT_BEFORE_RANK:
                matches.append(match)
    found: dict[int, Finding] = {}      # by start: "arrive en troisième position" is read twice
    for match in matches:
        group = match.lastindex
        start = match.start(group)
        if start in found or _seat_near(text, match.start(), match.end()):
            continue
        word = match.group(group)
        value = next((n for stem, n in _WORD_VALUES[language] if stem.match(word)), None)
        if value is None or value in ranks:
            continue
        held = ", ".join(map(str, sorted(ranks))) or "none (the rank is not known)"
        found[start] = _new_finding(
            "word_number", word, str(value), start, match.end(group), "small_integer",
            f"{word} is stated as a rank; the ranks the evidence holds are {held}", None, False)
    return [found[start] for start in sorted(found)]
