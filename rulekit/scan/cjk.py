"""Chinese (and Japanese) numerals: 三百五十, 两万, 二〇二六, 第三, 三成, 翻了一番, 一半, 百分之五; a
scale after digits (1.2万, 1万2800); and the idioms whose number characters are not numbers
(``CJK_IDIOMS``)."""

from __future__ import annotations

import re
from decimal import Decimal

from rulekit.scan.base import _IDIOM, _Hit, _trie

# Chinese idioms and words whose number characters are not numbers. Those made only of number
# characters must not touch another number character (三千万 is 30 million, not 三 + 千万).
CJK_IDIOMS = (
    "千万", "千萬", "万一", "萬一", "万万", "萬萬", "千千万万", "千千萬萬", "百分百", "百分之百",
    "十万火急", "十萬火急", "一定", "一直", "一些", "一样", "一樣", "一起", "一下", "一点", "一點",
    "一般", "一切", "一旦", "一致", "一共", "一边", "一邊", "一会", "一會", "一再", "一向", "一如",
    "统一", "統一", "唯一", "万分", "萬分", "一成不变", "一成不變", "三心二意", "一心一意",
    "七上八下", "乱七八糟", "亂七八糟", "不管三七二十一", "一石二鸟", "一石二鳥", "四面八方",
    "五花八门", "五花八門", "九死一生", "千方百计", "千方百計", "百发百中", "百發百中", "一模一样",
    "一模一樣", "一清二楚", "独一无二", "獨一無二", "十全十美", "成千上万", "成千上萬", "万无一失",
    "萬無一失", "一举两得", "一舉兩得", "十有八九", "千载难逢", "千載難逢", "九牛一毛", "一五一十",
    "三番五次", "五湖四海", "万众一心", "萬眾一心", "一帆风顺", "一帆風順", "千钧一发", "千鈞一髮",
    "一目了然", "一路顺风", "一路順風", "百闻不如一见", "百聞不如一見", "十字", "万岁", "萬歲",
    "万能", "萬能", "百货", "百貨", "百姓", "千克", "千米", "第一时间", "第一時間",
)
_CJK_NUMERALS = "零〇一二两兩三四五六七八九壹贰貳叁參肆伍陆陸柒捌玖十拾百佰千仟万萬亿億"
_CJK_DIGIT = {"零": 0, "〇": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
              "三": 3, "叁": 3, "參": 3, "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6,
              "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9}
_CJK_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CJK_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CJK_CLASSIFIERS = frozenset("个個次条條篇位名天周週年件张張本人家台辆輛部只隻份层層分秒倍项項款")
_CJK_CHENG_NOT = frozenset("功为為立本员員绩績果交熟长長就人都")
_PURE_IDIOMS = [i for i in CJK_IDIOMS if all(c in _CJK_NUMERALS for c in i)]
_CJK_IDIOM = re.compile(
    rf"(?<![{_CJK_NUMERALS}])(?:{_trie(_PURE_IDIOMS)})(?![{_CJK_NUMERALS}])"
    rf"|(?:{_trie(i for i in CJK_IDIOMS if i not in _PURE_IDIOMS)})"
    r"|十分(?![钟鐘])|(?:星期|礼拜|禮拜|周|週)[一二三四五六日天]")
_CJK_ANY = re.compile(rf"[{_CJK_NUMERALS}翻]")
_CJK_RUN = re.compile(rf"[{_CJK_NUMERALS}]+")
_CJK_PERCENT = re.compile(rf"百分之([{_CJK_NUMERALS}]+)")
_CJK_DOUBLING = re.compile(r"翻了?([一二两兩三四])番|翻倍|加倍|翻番")
_CJK_HALF = re.compile(r"一半")
_CJK_SCALE = re.compile(r"[ \u00a0]?([十百千]?[万萬]|[十百千]?[亿億]|千(?![米克瓦卡]))")
_CJK_REST = re.compile(r"[0-9]+(?:\.[0-9]+)?(?=[万萬])|[0-9]{1,4}(?![0-9.,])")


_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}


def _small_unit(text: str, rest: re.Match) -> tuple[Decimal, int, int]:
    """The digits after a 万 or 亿 with the unit written after them: 1万2千 is 10000 + 2000
    (not 10002), 1万2800 is exact. (value, end, what the digits were multiplied by)."""
    digits, end = rest.group(), rest.end()
    unit = _SMALL_UNITS.get(text[end:end + 1]) if "." not in digits else None
    if unit is None:
        return Decimal(digits), end, 1
    return Decimal(digits) * unit, end + 1, unit


class _Cjk:
    """Chinese (and Japanese) numerals, multiples and idioms; a part of ``_Scanner``."""

    def cjk_scale(self, hit: _Hit, found: re.Match) -> int:
        """1.2万 (12000), 3千万, 1万2800 (12800, exact), 1亿2000万."""
        text = self.text
        unit = found.group(1)
        scale = _cjk_unit(unit)
        value = hit.value
        end = found.end()
        rest = _CJK_REST.match(text, end) if unit[-1] in "万萬亿億" else None
        if rest and value == value.to_integral_value():
            remainder, rest_end, rest_scale = _small_unit(text, rest)
            if text[rest_end:rest_end + 1] in ("万", "萬") and unit[-1] in "亿億":
                remainder, rest_end, rest_scale = remainder * 10**4, rest_end + 1, \
                    rest_scale * 10**4
                more = _CJK_REST.match(text, rest_end)
                if more and "." not in more.group():
                    more_value, rest_end, rest_scale = _small_unit(text, more)
                    remainder += more_value
            if remainder < scale:
                hit.value, hit.scaled, hit.scale = value * scale + remainder, True, rest_scale
                return rest_end
        hit.value, hit.scaled, hit.scale = value * scale, True, scale
        return end

    def cjk(self) -> None:
        text = self.text
        if _CJK_ANY.search(text) is None:
            return
        for match in _CJK_IDIOM.finditer(text):
            if self.free(*match.span()):
                self.mask[match.start():match.end()] = bytes((_IDIOM,)) * (match.end() - match.start())
        for match in _CJK_PERCENT.finditer(text):
            value = _cjk_value(match.group(1))
            if value is not None and self.free(*match.span()):
                hit = _Hit("word_number", *match.span(), Decimal(value))
                hit.percent = True
                self.claim(hit)
        for match in _CJK_DOUBLING.finditer(text):
            if self.free(*match.span()):
                times = match.group(1)
                self.claim(_Hit("multiple", *match.span(),
                                Decimal(2 ** _CJK_DIGIT[times] if times else 2)))
        for match in _CJK_HALF.finditer(text):
            s = match.start()
            if (not s or text[s - 1] not in _CJK_NUMERALS) and self.free(*match.span()):
                self.claim(_Hit("word_number", *match.span(), Decimal("0.5")))
        for match in _CJK_RUN.finditer(text):
            s, e = match.span()
            if not self.free(s, e) or (s and text[s - 1].isdigit()) \
                    or (s > 1 and text[s - 1] in " \u00a0" and text[s - 2].isdigit()):
                continue                    # 3千万, 1.2 萬: the digits' scale
            self.cjk_run(s, e, match.group())

    def cjk_run(self, s: int, e: int, run: str) -> None:
        text = self.text
        after = text[e:e + 1]
        if run == "百" and after == "分":
            return                          # 百分之, 百分比: "per cent", not a hundred
        ordinal = s > 0 and text[s - 1] == "第"
        ratio = after == "成" and text[e + 1:e + 2] not in _CJK_CHENG_NOT \
            and not text.startswith(("不变", "不變"), e + 1)
        if not any(c in _CJK_SMALL or c in _CJK_BIG for c in run):
            if len(run) >= 2 and ("〇" in run or "零" in run):
                value = int("".join(str(_CJK_DIGIT[c]) for c in run))
            elif len(run) == 1 and (after == "倍" or ratio or ordinal
                                    or (run != "一" and after in _CJK_CLASSIFIERS)):
                value = _CJK_DIGIT[run]
            else:
                return
        else:
            if len(run) < 2 and not (ordinal or after in _CJK_CLASSIFIERS):
                return
            value = _cjk_value(run)
            if value is None:
                return
        hit = _Hit("word_number", s, e, Decimal(value))
        if after == "倍":
            hit.kind, hit.e = "multiple", e + 1
        elif ratio:
            hit.kind, hit.e = "multiple", e + 1
            next_digit = _CJK_DIGIT.get(text[e + 1:e + 2])
            if next_digit is not None and value < 10:
                hit.value, hit.e = Decimal(value * 10 + next_digit) / 100, e + 2
            else:
                hit.value = Decimal(value) / 10
        elif ordinal:
            hit.ordinal, hit.s = True, s - 1
        else:
            if after in ("%", "\u066a"):
                hit.percent, hit.e = True, e + 1
            if run[-1] in _CJK_BIG:
                hit.scaled, hit.scale = True, _CJK_BIG[run[-1]]
        if self.free(hit.s, hit.e):
            self.claim(hit)


def _cjk_unit(unit: str) -> int:
    value = 1
    for char in unit:
        value *= _CJK_SMALL.get(char) or _CJK_BIG.get(char, 1)
    return value


def _cjk_value(run: str) -> int | None:
    """A Chinese numeral: 三百五十 350, 一千二百 1200, 两万 20000, 十五 15, and the colloquial
    一千二 1200, 三万五 35000. None when it is not well formed (三四, 十百)."""
    total = section = 0
    digit: int | None = None
    last_unit = 0               # the last unit written, for the colloquial trailing digit
    last_big = 10**12
    zero = False
    for char in run:
        if char in _CJK_DIGIT:
            if digit is not None and not zero:
                return None
            digit = _CJK_DIGIT[char]
            if digit == 0:
                zero, digit = True, None
            continue
        small = _CJK_SMALL.get(char)
        if small is not None:
            if last_unit and small >= last_unit and last_unit < 10**4:
                return None
            section += (digit if digit is not None else 1) * small
            digit, last_unit, zero = None, small, False
            continue
        big = _CJK_BIG[char]
        if big >= last_big:
            return None
        if digit is not None:
            section += digit
        if section == 0:
            return None
        if big == 10**8:
            total = (total + section) * big
        else:
            total += section * big
        section, digit, last_unit, last_big, zero = 0, None, big, big, False
    if digit is not None:
        if last_unit and not zero:
            digit *= last_unit // 10       # 一千二 = 1200, 三万五 = 35000
        section += digit
    return total + section
