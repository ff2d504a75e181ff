"""Stage 2: parse preprocessed OpenCL C with pycparserext's ``OpenCLCParser``."""
from __future__ import annotations

import re

from pycparser import c_ast
from pycparser.c_lexer import Token
from pycparser.c_parser import _TYPE_QUALIFIER, Coord, ParseError
from pycparserext.ext_c_lexer import OpenCLCLexer
from pycparserext.ext_c_parser import (_ATTRIBUTE_TOKENS, _OCL_TYPE_QUALIFIERS,
                                       AttributeSpecifier, FuncDeclExt, OpenCLCParser,
                                       StructExt)

from . import types as ty
from .diagnostics import Diagnostic, Reporter
from .language_version import CL1_2, LanguageVersion
from .source_text import from_line_marker
from .typed_ast import typed, walk

_COORD = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::(?P<col>\d+))?: (?P<msg>.*)$", re.S)

# Attributes cl2c reads (sema/attributes.py: a kernel's work-group sizes, a record's or a
# variable's aligned, a record's packed) or may ignore, changing nothing a kernel
# computes: OpenCL C's (spec 6.11) and the GCC and clang ones kernels carry for their
# host compilers. Others are ignored with a warning, as
# clang's -Wunknown-attributes does.
KNOWN_ATTRIBUTES = frozenset({
    "aligned", "packed", "endian", "reqd_work_group_size", "work_group_size_hint",
    "vec_type_hint", "nosvm", "opencl_unroll_hint", "intel_reqd_sub_group_size",
    "always_inline", "noinline", "inline", "flatten", "const", "pure", "unused", "used",
    "maybe_unused", "deprecated", "overloadable", "noreturn", "nonnull", "hot", "cold",
    "warn_unused_result", "visibility", "weak", "optnone", "nodebug", "artificial",
    "fallthrough", "leaf", "nothrow", "may_alias", "returns_nonnull", "malloc",
    "alloc_size", "assume_aligned", "no_instrument_function", "format", "diagnose_if",
    "enable_if", "clang_builtin_alias", "convergent", "noduplicate", "restrict"})

# Names the OpenCL dialect treats as types although the parser does not know them.
RUNTIME_TYPEDEFS = ("size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "event_t", "half",
                    "cl_mem_fence_flags", "memory_order", "memory_scope",
                    "sampler_t", *ty.IMAGE_KINDS, *ty.ATOMIC_TYPES)


class UnionExt(c_ast.Union):
    """A union with layout attributes (pycparserext has StructExt only)."""


class _FiledToken(Token):
    """A token with the file it was read from: the lexer's own file name is that of its
    look-ahead, which a line marker (an #include's start or end) may have changed."""
    __slots__ = ("file",)


class _FilingLexer(OpenCLCLexer):
    def token(self):
        tok = super().token()
        if tok is None:
            return None
        filed = _FiledToken(tok.type, tok.value, tok.lineno, tok.column)
        filed.file = self._filename
        return filed


class _Parser(OpenCLCParser):
    """OpenCL's ``vec_step(type)``, and errors that pycparser reports without a position
    pointed at the next token."""

    lexer_class = _FilingLexer

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._vector_typedefs: set[str] = set()
        self.attributes: list[c_ast.Node] = []     # every attribute read, in order

    def _tok_coord(self, tok):
        return Coord(file=getattr(tok, "file", self.clex.filename), line=tok.lineno,
                     column=tok.column)

    def _parse_attribute(self):
        # vec_type_hint takes a type name (spec 6.11.2), as vec_step does: a call whose
        # one argument is a Typename (an ID where the name is no type, which sema reports)
        tok = self._peek()
        if tok is not None and tok.type == "ID" and tok.value in ("vec_type_hint",
                                                                  "__vec_type_hint__"):
            mark = self._mark()
            self._advance()
            result = self._try_parse_paren_type_name()
            if result is not None:
                coord = self._tok_coord(tok)
                return c_ast.FuncCall(c_ast.ID(tok.value, coord),
                                      c_ast.ExprList([result[0]], coord), coord)
            self._reset(mark)
        return super()._parse_attribute()

    def _parse_attribute_decl(self):
        # pycparserext drops the attributes of parameters and declarators: remember each
        # one, so that those cl2c does not know are reported (unknown_attributes)
        attrs = super()._parse_attribute_decl()
        self.attributes += attrs.exprs
        return attrs

    def _build_declarations(self, spec, decls, *args, **kwargs):
        # A declarator-less declaration whose last specifier is a struct or union (a
        # fuzz mutant's 'void union x'): pycparser's test of a redeclared typedef name
        # reads the specifier's .names (an AttributeError); it is invalid either way.
        if decls and decls[0].get("bitsize") is None and decls[0].get("decl") is None and \
                len(spec["type"]) >= 2 and not hasattr(spec["type"][-1], "names"):
            self._parse_error("Invalid declaration", spec["type"][-1].coord)
        # Remember typedef names of vector types (typedef float4 v4): a literal
        # (v4)(1, 2, 3, 4) is a vector literal as much as (float4)(...) is.
        declarations = super()._build_declarations(spec, decls, *args, **kwargs)
        for d in declarations:
            if isinstance(d, c_ast.Typedef) and _is_vector_type_name(d, self._vector_typedefs):
                self._vector_typedefs.add(d.name)
        return declarations

    # pycparser gives a declaration without a type specifier C89's implicit int
    # (``f(int x) {...}``, ``const x = 1;``, ``void g(const n)``), which OpenCL C, as
    # C99, does not have.
    _NO_IMPLICIT_INT = "type specifier missing (OpenCL C has no implicit int)"

    def _parse_external_declaration(self):
        tok = self._peek()
        if tok is not None and tok.type == "ID" and not self._starts_declaration(tok):
            self._parse_error(self._NO_IMPLICIT_INT, self._tok_coord(tok))
        return super()._parse_external_declaration()

    def _parse_declaration_specifiers(self, allow_no_type=False):
        first = self._peek()
        spec, saw_type, coord = super()._parse_declaration_specifiers(allow_no_type)
        if not spec["type"] and first is not None:
            name = self._peek()
            if name is not None and name.type == "ID" and self._peek_type(2) not in (
                    "EQUALS", "SEMI", "COMMA", "RPAREN", "LBRACKET", "LPAREN", "COLON"):
                self._parse_error(f"unknown type name '{name.value}'", self._tok_coord(name))
            self._parse_error(self._NO_IMPLICIT_INT, self._tok_coord(first))
        return spec, saw_type, coord

    def _pop_scope(self):
        if len(self._scope_stack) <= 1:     # pycparser raises this one without a position
            lex = self.clex                 # (called as the lexer reads the '}')
            self._parse_error("unmatched '}'", self._coord(
                lex._lineno, max(1, lex._pos - lex._line_start)))
        super()._pop_scope()

    def _parse_struct_or_union_specifier(self):
        # GCC also takes layout attributes after the closing brace
        # (``typedef struct {...} __attribute__((aligned(32))) T;``); pycparserext would
        # read them as the declaration's and drop them: they belong to the struct.
        node = super()._parse_struct_or_union_specifier()
        if node.decls is None or self._peek_type() not in ("__ATTRIBUTE__", "__ATTRIBUTE"):
            return node
        trailing = self._parse_attributes_opt()
        before = getattr(node, "attrib", None)
        exprs = (before.exprlist.exprs if before is not None else []) + trailing.exprs
        if type(node) is c_ast.Struct:
            node = StructExt.from_pycparser(node)
        elif type(node) is c_ast.Union:
            node = UnionExt(node.name, node.decls, node.coord)
        node.attrib = AttributeSpecifier(c_ast.ExprList(exprs, trailing.coord))
        return node

    def _scan_declarator_name_info(self):
        # pycparserext's look-ahead for a declarator's name skips C's qualifiers after
        # '*' but not OpenCL's: `global int *global p` (a 2.0 program-scope pointer)
        # read as "Invalid declarator". Skip the stars and all their qualifiers here.
        while self._accept("TIMES"):
            while self._peek_type() in _TYPE_QUALIFIER | _OCL_TYPE_QUALIFIERS:
                self._advance()
            while self._peek_type() in _ATTRIBUTE_TOKENS:
                self._advance()
                self._scan_skip_paren_group()
                self._scan_skip_paren_group()
        return super()._scan_declarator_name_info()

    def _parse_postfix_expression(self):
        # vec_step takes a type name as sizeof does (spec 6.12.13 / 6.3.k); it becomes a
        # call whose one argument is a Typename, which semantic analysis folds.
        tok = self._peek()
        if tok is not None and tok.type == "ID" and tok.value == "vec_step":
            mark = self._mark()
            self._advance()
            result = self._try_parse_paren_type_name()
            if result is not None:
                coord = self._tok_coord(tok)
                return c_ast.FuncCall(c_ast.ID("vec_step", coord),
                                      c_ast.ExprList([result[0]], coord), coord)
            self._reset(mark)
        return super()._parse_postfix_expression()

    # (float4)(1, 2, 3, 4).xy: clang reads a vector literal as a primary expression, so
    # postfix operators apply to the literal, not to its parenthesized operand as they
    # would after a C cast.
    def _parse_cast_expression(self):
        if self._vector_literal_ahead():
            return self._parse_unary_expression()
        return super()._parse_cast_expression()

    def _parse_primary_expression(self):
        if self._vector_literal_ahead():
            typ, _, lparen_tok = self._try_parse_paren_type_name()
            self._expect("LPAREN")
            expr = self._parse_expression()
            self._expect("RPAREN")
            return c_ast.Cast(typ, expr, self._tok_coord(lparen_tok))
        return super()._parse_primary_expression()

    def _vector_literal_ahead(self) -> bool:
        if self._peek_type() != "LPAREN":
            return False
        mark = self._mark()
        result = self._try_parse_paren_type_name()
        ahead = result is not None and self._peek_type() == "LPAREN" and \
            _is_vector_type_name(result[0], self._vector_typedefs) and \
            self._try_parse_paren_type_name() is None   # (float4)(float)x: a cast's cast
        self._reset(mark)
        return ahead

    def _parse_error(self, msg, coord):
        # A construct of OpenCL C 2.0 that cl2c does not support, where the parser
        # stopped or before: name it, rather than the syntax error it causes.
        if getattr(self, "_reporting", False):   # the lexer's error, met looking ahead
            super()._parse_error(msg, coord)
        self._reporting = True
        stream = self._tokens
        try:
            stream.peek(3)              # the tokens just after where the parser stopped
        except IndexError:              # (at the end of the input)
            pass
        unsupported = _unsupported_construct(stream._buffer[:stream._index + 3])
        if unsupported is not None:
            tok, msg = unsupported
            super()._parse_error(msg, self._tok_coord(tok))
        if msg == "At end of input":
            last = next((t for t in reversed(stream._buffer) if t is not None), None)
            if last is not None:
                coord = self._tok_coord(last)
                coord.column += len(str(last.value))
            super()._parse_error("unexpected end of file (a '}', ')' or ';' is missing)",
                                 coord)
        if coord is None or isinstance(coord, str):
            try:
                tok = self._peek()
            except IndexError:
                tok = None
            if tok is not None:
                coord = self._tok_coord(tok)
                if msg == "Invalid expression":
                    msg = f"expected expression before: {tok.value}"
            else:                       # at the end of the input: after its last token
                last = next((t for t in reversed(stream._buffer) if t is not None), None)
                if last is not None:
                    coord = self._tok_coord(last)
                    coord.column += len(str(last.value))
                    msg = f"{msg} at end of file"
        super()._parse_error(msg, coord)


# Tokens that can end an expression: a '^' after one is exclusive or, after any other
# token a block (clang's extension, ^{ ... }, for device-side enqueue).
_ENDS_EXPRESSION = {"ID", "RPAREN", "RBRACKET", "PLUSPLUS", "MINUSMINUS", "STRING_LITERAL",
                    "CHAR_CONST", "FLOAT_CONST", "HEX_FLOAT_CONST", "INT_CONST_DEC",
                    "INT_CONST_OCT", "INT_CONST_HEX", "INT_CONST_BIN", "INT_CONST_CHAR",
                    "WCHAR_CONST", "U8CHAR_CONST", "U16CHAR_CONST", "U32CHAR_CONST"}
_ENQUEUE_TYPES = ("queue_t", "ndrange_t", "clk_event_t", "reserve_id_t")
NO_PIPES = ("pipes (the pipe qualifier, read_pipe, write_pipe, ...) are not supported by "
            "cl2c")
NO_ENQUEUE = ("device-side enqueue (blocks, enqueue_kernel, queue_t, ndrange_t, "
              "clk_event_t) is not supported by cl2c")


def _unsupported_construct(tokens) -> tuple | None:
    """(token, message) of the first pipe, block or device-side enqueue type among the
    tokens read: OpenCL C 2.0 features cl2c does not have."""
    tokens = [t for t in tokens if t is not None]
    for before, tok, after in zip([None] + tokens, tokens, tokens[1:] + [None]):
        if tok.type == "ID" and tok.value == "pipe" and after is not None and \
                after.type not in ("EQUALS", "SEMI", "COMMA", "RPAREN", "LBRACKET", "PERIOD",
                                   "ARROW", "LPAREN"):
            return tok, NO_PIPES
        if tok.type == "XOR" and (before is None or before.type not in _ENDS_EXPRESSION):
            return tok, "blocks ('^'): " + NO_ENQUEUE
        if tok.value in _ENQUEUE_TYPES and after is not None and \
                after.type in ("ID", "TIMES"):
            return tok, f"'{tok.value}': " + NO_ENQUEUE
    return None


_VECTOR_TYPE = re.compile(r"(u?(char|short|int|long)|float|double|half)(2|3|4|8|16)")


def _is_vector_type_name(typename, vector_typedefs=frozenset()) -> bool:
    """A type name (or typedef) of a vector type: a built-in one (float4), or a name
    an earlier typedef gave one (the parser sees through typedefs of names only)."""
    t = typename.type
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and
            len(t.type.names) == 1):
        return False
    name = t.type.names[0]
    return _VECTOR_TYPE.fullmatch(name) is not None or name in vector_typedefs


# Half literals (0.5h), which clang accepts with cl_khr_fp16 and piglit uses, become
# ((half)0.5), which the parser knows (through double: one rounding to 11 bits from 53);
# string literals are matched to be left alone.
_HALF_LITERAL = re.compile(r'("(?:[^"\\\n]|\\.)*")'
                           r'|(?<![\w.])((?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)'
                           r'[hH](?!\w)')


def _half_literals(text: str) -> str:
    return _HALF_LITERAL.sub(lambda m: m.group(1) or f"((half){m.group(2)})", text)


def _prelude() -> str:
    # Declaring the runtime's type names first lets the parser treat them as
    # types; the line marker keeps the user's line numbers intact.
    return "".join(f"typedef int {name};\n" for name in RUNTIME_TYPEDEFS)


def parse(text: str, filename: str, reporter: Reporter,
          cl_std: LanguageVersion = CL1_2) -> c_ast.FileAST | None:
    """The typed tree (typed_ast.py) of a translation unit, or None after reporting a
    syntax error."""
    parser = _Parser()
    if cl_std.generic_address_space:
        # generic and __generic (OpenCL C 2.0 keywords, which pycparserext does not
        # know) lex as an address space qualifier token; sema reads the word (generic)
        parser.clex._extra_keywords = {**parser.clex._extra_keywords,
                                       "generic": "__PRIVATE__", "__generic": "__PRIVATE__"}
    prelude = _prelude()
    try:
        ast = parser.parse(prelude + _half_literals(text), filename)
    except ParseError as e:
        reporter.diagnostics.append(_diagnostic(str(e), filename))
        return None
    except (AttributeError, TypeError, IndexError, KeyError, ValueError):
        # pycparser failing on what it did not expect there (`const float enum s` in a
        # parameter list): a syntax error at the last token it read
        reporter.diagnostics.append(_diagnostic(_stopped_at(parser), filename))
        return None
    for name, coord in unknown_attributes(parser.attributes):
        reporter.warning(f"unknown attribute '{name}' ignored", coord)
    # Drop the prelude's typedefs; semantic analysis knows those types natively.
    ast.ext = ast.ext[len(RUNTIME_TYPEDEFS):]
    _Normalizer().visit(ast)
    for node in walk(ast):              # a #line string's escapes (source_text.py)
        coord = getattr(node, "coord", None)
        if coord is not None and coord.file and "\\" in coord.file:
            coord.file = from_line_marker(coord.file)
    return typed(ast)


def _stopped_at(parser) -> str:
    """pycparser's kind of message for the last token the parser took ("file:line:col:
    before: s"), from its token stream; without a position where it has none."""
    stream = getattr(parser, "_tokens", None)
    buffer, index = getattr(stream, "_buffer", []), getattr(stream, "_index", 0)
    tok = buffer[min(index, len(buffer)) - 1] if buffer and index > 0 else None
    if tok is None:
        return "syntax error"
    coord = parser._tok_coord(tok)
    return f"{coord.file}:{coord.line}:{coord.column}: before: {tok.value}"


def unknown_attributes(attributes) -> list[tuple[str, object]]:
    """(name, position) of each attribute not in KNOWN_ATTRIBUTES (``__name__`` is
    ``name``)."""
    out = []
    for a in attributes:
        bare = attribute_name(a)
        if bare is not None and bare not in KNOWN_ATTRIBUTES:
            named = a.name if isinstance(a, c_ast.FuncCall) else a
            out.append((named.name, named.coord))
    return out


def attribute_name(attribute) -> str | None:
    """The name of one attribute as read (``aligned`` or ``aligned(64)``), without the
    ``__name__`` underscores, or None."""
    named = attribute.name if isinstance(attribute, c_ast.FuncCall) else attribute
    if not isinstance(named, c_ast.ID) or not named.name:
        return None
    name = named.name
    return name[2:-2] if len(name) > 4 and name.startswith("__") and name.endswith("__") \
        else name


class _Normalizer(c_ast.NodeVisitor):
    """Turn pycparserext's FuncDeclExt into pycparser's FuncDecl, so that later
    stages see one node type per construct; attributes written after a function
    declarator join the declaration's other specifiers."""

    def visit_Decl(self, node):
        if isinstance(node.type, FuncDeclExt):
            ext = node.type
            node.type = c_ast.FuncDecl(ext.args, ext.type, ext.coord)
            if ext.attributes is not None:
                node.funcspec = list(node.funcspec or []) + [ext.attributes]
        self.generic_visit(node)

    def visit_Typename(self, node):
        if isinstance(node.type, FuncDeclExt):
            ext = node.type
            node.type = c_ast.FuncDecl(ext.args, ext.type, ext.coord)
        self.generic_visit(node)


def _diagnostic(message: str, filename: str) -> Diagnostic:
    m = _COORD.match(message)
    if not m:
        return Diagnostic("error", message, filename)
    msg = m.group("msg")
    if msg.startswith("Comments are not supported"):    # what pcpp leaves of one
        msg = "unterminated /* comment"
    elif msg.startswith("before: "):
        msg = f"syntax error before '{msg[len('before: '):]}'"
    elif msg.startswith("expected expression before: "):
        msg = f"expected expression before '{msg[len('expected expression before: '):]}'"
    col = int(m.group("col")) if m.group("col") else None
    return Diagnostic("error", msg, from_line_marker(m.group("file")), int(m.group("line")),
                      col)
