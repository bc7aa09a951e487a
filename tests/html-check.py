#!/usr/bin/env python3
# html-check.py PAGE [TEXT...]: reads a report page with a real HTML parser
# (python's html.parser, which reads tags and attributes as a browser's
# tokenizer does) and fails when anything in it could run: a script, an
# iframe, object or embed element, an on* event attribute, a javascript:
# URL. Each TEXT must be on the page as text or an attribute's value, so
# a hostile name from the data was shown escaped, not dropped.
import html.parser, sys

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.bad = []
        self.seen = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "iframe", "object", "embed", "img", "image",
                   "foreignobject", "a", "base", "link"):
            self.bad.append("a <%s> element" % tag)
        for k, v in attrs:
            if k.startswith("on"):
                self.bad.append("an %s= attribute on <%s>" % (k, tag))
            if v and v.strip().lower().startswith("javascript:"):
                self.bad.append("a javascript: URL in <%s %s>" % (tag, k))
            if v:
                self.seen.append(v)

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.seen.append(data)

page = Page()
page.feed(open(sys.argv[1], encoding="utf-8", errors="replace").read())
page.close()
text = "\n".join(page.seen)
missing = [t for t in sys.argv[2:] if t not in text]
for b in page.bad:
    print("html-check: %s: %s" % (sys.argv[1], b))
for t in missing:
    print("html-check: %s: %r is not shown" % (sys.argv[1], t))
sys.exit(1 if page.bad or missing else 0)
