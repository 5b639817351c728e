import { format, type Language } from './i18n';

/**
 * Messages the server sends and the web app shows, in every language. One catalogue, so a rule's
 * wording lives next to nothing else and the server and the browser say the same thing.
 * Placeholders: {0}, {1} positional or {name}.
 */
const catalogue = {
  // general
  internalError: {
    en: 'Internal error. The error has been logged.',
    ch: '内部错误，已记录。',
    de: 'Interner Fehler. Der Fehler wurde protokolliert.',
  },
  validationFailed: { en: 'Validation failed', ch: '验证失败', de: 'Validierung fehlgeschlagen' },
  malformedJson: {
    en: 'The request body is not valid JSON',
    ch: '请求内容不是有效的 JSON',
    de: 'Der Anfrageinhalt ist kein gültiges JSON',
  },
  routeNotFound: {
    en: 'Unknown API route: {0} {1}',
    ch: '未知的 API 路径：{0} {1}',
    de: 'Unbekannte API-Route: {0} {1}',
  },
  controlCharacter: {
    en: '{0} may not contain control characters (such as NUL)',
    ch: '{0} 不能包含控制字符（例如 NUL）',
    de: '{0} darf keine Steuerzeichen (wie NUL) enthalten',
  },
  valueOutOfRange: {
    en: '{0} is out of the allowed range',
    ch: '{0} 超出允许范围',
    de: '{0} liegt außerhalb des erlaubten Bereichs',
  },
  referenceMissing: {
    en: '{0} refers to a record that does not exist',
    ch: '{0} 引用的记录不存在',
    de: '{0} verweist auf einen Datensatz, der nicht existiert',
  },
  tooManyAttemptsSeconds: {
    en: 'Too many attempts. Try again in {0} seconds.',
    ch: '尝试次数过多，请在 {0} 秒后重试。',
    de: 'Zu viele Versuche. Bitte in {0} Sekunden erneut versuchen.',
  },
  setupCodeInvalid: {
    en: 'The setup code is not the one the server printed at start (see its console or log)',
    ch: '安装码与服务器启动时打印的不一致（请查看其控制台或日志）',
    de: 'Der Einrichtungscode ist nicht der, den der Server beim Start ausgegeben hat (siehe Konsole oder Log)',
  },
  twoFactorCodeRequired: {
    en: 'Enter the code of your authenticator app (or a recovery code)',
    ch: '请输入身份验证器应用中的验证码（或恢复码）',
    de: 'Geben Sie den Code Ihrer Authenticator-App (oder einen Wiederherstellungscode) ein',
  },
  twoFactorCodeInvalid: {
    en: 'The code is not valid',
    ch: '验证码无效',
    de: 'Der Code ist ungültig',
  },
  twoFactorAlreadyOn: {
    en: 'Two-factor sign-in is already on',
    ch: '两步验证登录已开启',
    de: 'Die Zwei-Faktor-Anmeldung ist bereits eingeschaltet',
  },
  twoFactorRequiredByRole: {
    en: 'Your role requires two-factor sign-in. Set it up to continue.',
    ch: '您的角色要求启用两步验证登录。请先完成设置再继续。',
    de: 'Ihre Rolle verlangt die Zwei-Faktor-Anmeldung. Richten Sie sie ein, um fortzufahren.',
  },
  twoFactorKeptByRole: {
    en: 'Your role requires two-factor sign-in: it cannot be turned off',
    ch: '您的角色要求两步验证登录：无法关闭',
    de: 'Ihre Rolle verlangt die Zwei-Faktor-Anmeldung: sie kann nicht ausgeschaltet werden',
  },
  twoFactorNotStarted: {
    en: 'Start the two-factor setup first',
    ch: '请先开始两步验证设置',
    de: 'Starten Sie zuerst die Einrichtung der Zwei-Faktor-Anmeldung',
  },
  recordNotFound: { en: 'No record found', ch: '未找到记录', de: 'Kein Datensatz gefunden' },
  noPermission: {
    en: "You don't have permissions for this operation",
    ch: "You don't have permissions（您没有此操作的权限）",
    de: "You don't have permissions (keine Berechtigung für diesen Vorgang)",
  },
  alreadyExists: {
    en: '{0} [{1}] already exists',
    ch: '{0} [{1}] 已存在',
    de: '{0} [{1}] existiert bereits',
  },
  tooManyAttempts: {
    en: 'Too many attempts. Try again in {0} minutes.',
    ch: '尝试次数过多，请在 {0} 分钟后重试。',
    de: 'Zu viele Versuche. Bitte in {0} Minuten erneut versuchen.',
  },
  fileTooBig: {
    en: 'File is too big ({size}MB). Max file size: {max}MB',
    ch: '文件太大（{size}MB）。最大文件大小：{max}MB',
    de: 'Datei ist zu groß ({size}MB). Maximale Dateigröße: {max}MB',
  },
  fileTypeNotAllowed: {
    en: "You can't upload files of this type.",
    ch: '不能上传此类型的文件。',
    de: 'Dateien dieses Typs können nicht hochgeladen werden.',
  },
  inUseCannotDelete: {
    en: '{0} is in use by {1} record(s) and cannot be deleted',
    ch: '{0} 正被 {1} 条记录使用，无法删除',
    de: '{0} wird von {1} Datensätzen verwendet und kann nicht gelöscht werden',
  },
  // field validation
  required: { en: '{0} is required', ch: '{0} 为必填项', de: '{0} ist erforderlich' },
  invalidEmail: {
    en: 'The {0} field must be a valid email',
    ch: '{0} 必须是有效的电子邮件',
    de: 'Das Feld {0} muss eine gültige E-Mail sein',
  },
  onlyOneEmail: {
    en: 'Only one Email is allowed',
    ch: '只允许一个电子邮件',
    de: 'Nur eine E-Mail ist erlaubt',
  },
  lettersAndSpaces: {
    en: '{0} may contain letters and spaces only',
    ch: '{0} 只能包含字母和空格',
    de: '{0} darf nur Buchstaben und Leerzeichen enthalten',
  },
  passwordLength: {
    en: 'Password must be 8 to 15 characters',
    ch: '密码长度必须为 8 到 15 个字符',
    de: 'Das Passwort muss 8 bis 15 Zeichen lang sein',
  },
  passwordsDoNotMatch: {
    en: 'Passwords do not match',
    ch: '密码不匹配',
    de: 'Passwörter stimmen nicht überein',
  },
  incorrectCurrentPassword: {
    en: 'Incorrect Current Password',
    ch: '当前密码不正确',
    de: 'Aktuelles Passwort ist falsch',
  },
  invalidIp: { en: 'IP format invalid', ch: 'IP 格式无效', de: 'IP-Format ungültig' },
  mustBeOneOf: {
    en: '{0} must be one of: {1}',
    ch: '{0} 必须是以下之一：{1}',
    de: '{0} muss einer der folgenden Werte sein: {1}',
  },
  tooLong: {
    en: '{0} must be at most {1} characters',
    ch: '{0} 最多 {1} 个字符',
    de: '{0} darf höchstens {1} Zeichen lang sein',
  },
  invalidValue: { en: '{0} is not valid', ch: '{0} 无效', de: '{0} ist ungültig' },
  numberAtLeast: {
    en: '{0} must be at least {1}',
    ch: '{0} 不能小于 {1}',
    de: '{0} muss mindestens {1} sein',
  },
  numberAtMost: {
    en: '{0} must be at most {1}',
    ch: '{0} 不能大于 {1}',
    de: '{0} darf höchstens {1} sein',
  },
  tooManyItems: {
    en: '{0} may have at most {1} entries',
    ch: '{0} 最多 {1} 项',
    de: '{0} darf höchstens {1} Einträge haben',
  },
  nameMustHaveAlnum: {
    en: 'Name must include alphanumeric characters',
    ch: '名称必须包含字母或数字',
    de: 'Der Name muss alphanumerische Zeichen enthalten',
  },
  // session and sign-in
  incorrectCredentials: {
    en: 'User name or password is incorrect',
    ch: '用户名或密码不正确',
    de: 'Benutzername oder Passwort ist falsch',
  },
  userInactive: { en: 'This user is inactive', ch: '该用户已停用', de: 'Dieser Benutzer ist deaktiviert' },
  ipNotAllowed: {
    en: 'Sign-in from IP {0} is not allowed for this user',
    ch: '此用户不允许从 IP {0} 登录',
    de: 'Anmeldung von IP {0} ist für diesen Benutzer nicht erlaubt',
  },
  tokenNotProvided: { en: 'Token is not provided', ch: '未提供令牌', de: 'Kein Token angegeben' },
  tokenIncorrect: {
    en: 'Incorrect token provided',
    ch: 'Incorrect token provided（令牌不正确）',
    de: 'Incorrect token provided (ungültiges Token)',
  },
  tokenDisabled: {
    en: 'token is disabled',
    ch: 'token is disabled（令牌已停用）',
    de: 'token is disabled (Token deaktiviert)',
  },
  tokenExpired: { en: 'Your session has expired', ch: '您的会话已过期', de: 'Ihre Sitzung ist abgelaufen' },
  setupDone: {
    en: 'The first administrator already exists',
    ch: '首个管理员已存在',
    de: 'Der erste Administrator existiert bereits',
  },
  registrationDisabled: {
    en: "Registration can't be processed now, contact admin",
    ch: '目前无法处理注册，请联系管理员',
    de: 'Registrierung derzeit nicht möglich, bitte Administrator kontaktieren',
  },
  resetLinkInvalid: {
    en: 'This password reset link is invalid or has expired',
    ch: '该密码重置链接无效或已过期',
    de: 'Dieser Link zum Zurücksetzen ist ungültig oder abgelaufen',
  },
  resetMailSubject: {
    en: 'Reset your {0} password',
    ch: '重置您的 {0} 密码',
    de: 'Ihr {0}-Passwort zurücksetzen',
  },
  resetMailBody: {
    en: 'Hello {name},\n\nSomeone asked to reset the password of your account "{user}". Open this link within one hour to choose a new password:\n\n{link}\n\nIf it was not you, ignore this message.',
    ch: '{name} 您好，\n\n有人请求重置您的账户“{user}”的密码。请在一小时内打开此链接设置新密码：\n\n{link}\n\n如果不是您本人操作，请忽略此邮件。',
    de: 'Hallo {name},\n\njemand hat das Zurücksetzen des Passworts für Ihr Konto "{user}" angefordert. Öffnen Sie diesen Link innerhalb einer Stunde:\n\n{link}\n\nFalls Sie das nicht waren, ignorieren Sie diese Nachricht.',
  },
  mailNotConfigured: {
    en: 'No mail sender is configured',
    ch: '未配置邮件发送器',
    de: 'Kein Mail-Absender konfiguriert',
  },
  // rules
  cannotDeleteSelf: {
    en: 'You cannot delete or deactivate your own user',
    ch: '不能删除或停用自己的用户',
    de: 'Sie können Ihren eigenen Benutzer nicht löschen oder deaktivieren',
  },
  cannotChangeFirstAdmin: {
    en: 'The first administrator cannot be deleted, deactivated or restricted',
    ch: '不能删除、停用或限制首个管理员',
    de: 'Der erste Administrator kann nicht gelöscht, deaktiviert oder eingeschränkt werden',
  },
  landingNotPermitted: {
    en: 'The landing page must be one the role may read',
    ch: '登录页必须是该角色可读的页面',
    de: 'Die Startseite muss für die Rolle lesbar sein',
  },
  roleInUse: {
    en: 'The role is assigned to {0} user(s) and cannot be deleted',
    ch: '该角色已分配给 {0} 个用户，无法删除',
    de: 'Die Rolle ist {0} Benutzer(n) zugewiesen und kann nicht gelöscht werden',
  },
  ticketSubjectRequired: { en: 'Subject is required', ch: '主题为必填项', de: 'Betreff ist erforderlich' },
  positiveInteger: {
    en: '{0} must be a valid positive integer',
    ch: '{0} 必须是有效的正整数',
    de: '{0} muss eine gültige positive ganze Zahl sein',
  },
  signedDecimal: {
    en: '{0} must be a decimal number (up to 12 digits and 6 decimals; a minus sign is allowed)',
    ch: '{0} 必须是十进制数（最多 12 位整数和 6 位小数，可带负号）',
    de: '{0} muss eine Dezimalzahl sein (bis zu 12 Stellen und 6 Nachkommastellen; ein Minuszeichen ist erlaubt)',
  },
  blockListOff: {
    en: 'The block list is not part of your portal; ask your account manager',
    ch: '您的门户未开通黑名单功能；请联系您的客户经理',
    de: 'Die Sperrliste ist nicht Teil Ihres Portals; wenden Sie sich an Ihren Kundenbetreuer',
  },
  blockListFull: {
    en: 'The block list holds at most {0} entries',
    ch: '黑名单最多只能有 {0} 条',
    de: 'Die Sperrliste fasst höchstens {0} Einträge',
  },
  resetNotPending: {
    en: 'Only a pending balance reset can be cancelled: this one was applied or cancelled already',
    ch: '只能取消待处理的余额重置：此重置已执行或已取消',
    de: 'Nur eine ausstehende Saldo-Rücksetzung kann storniert werden: diese wurde bereits ausgeführt oder storniert',
  },
  resetTooFar: {
    en: '{0} may be at most one year ahead',
    ch: '{0} 最多只能在一年之后',
    de: '{0} darf höchstens ein Jahr in der Zukunft liegen',
  },
  positiveDecimal: {
    en: '{0} must be a valid positive floating number',
    ch: '{0} 必须是有效的正数',
    de: '{0} muss eine gültige positive Dezimalzahl sein',
  },
  percentRange: {
    en: '{0} must be between 0 and 100',
    ch: '{0} 必须在 0 到 100 之间',
    de: '{0} muss zwischen 0 und 100 liegen',
  },
  digitsOnly: {
    en: '{0} may contain digits only',
    ch: '{0} 只能包含数字',
    de: '{0} darf nur Ziffern enthalten',
  },
  endAfterStart: {
    en: 'End time must be greater than start time',
    ch: '结束时间必须大于开始时间',
    de: 'Die Endzeit muss nach der Startzeit liegen',
  },
  startEndRequired: {
    en: 'Start time and end time cannot be null',
    ch: '开始时间和结束时间不能为空',
    de: 'Start- und Endzeit dürfen nicht leer sein',
  },
  endDayAfterStartDay: {
    en: 'End day of week must be greater than or equal to start day of week',
    ch: '结束星期必须大于或等于开始星期',
    de: 'Der End-Wochentag muss größer oder gleich dem Start-Wochentag sein',
  },
  invalidTime: {
    en: '{0} must be a time HH:mm',
    ch: '{0} 必须是 HH:mm 格式的时间',
    de: '{0} muss eine Uhrzeit HH:mm sein',
  },
  // carriers and trunks (issue 3)
  trunkCarrierInactive: {
    en: "The trunk can't be activated until the carrier is active.",
    ch: '在运营商激活之前，中继无法激活。',
    de: 'Der Trunk kann erst aktiviert werden, wenn der Carrier aktiv ist.',
  },
  trunkMustBeActive: {
    en: 'Please activate the trunk for any modification.',
    ch: '请先激活中继再进行修改。',
    de: 'Bitte aktivieren Sie den Trunk, um ihn zu ändern.',
  },
  hostInUse: {
    en: '{0} is already used by ingress trunk [{1}]',
    ch: '{0} 已被入向中继 [{1}] 使用',
    de: '{0} wird bereits vom Eingangs-Trunk [{1}] verwendet',
  },
  ipEnteredTwice: {
    en: 'Each IP can be entered once: {0}',
    ch: '每个 IP 只能输入一次：{0}',
    de: 'Jede IP darf nur einmal eingegeben werden: {0}',
  },
  duplicateSipProfile: {
    en: 'Duplicate SIP profile [{0}] for the same ingress trunk is not allowed',
    ch: '同一入向中继不允许重复的 SIP 配置 [{0}]',
    de: 'Doppeltes SIP-Profil [{0}] für denselben Eingangs-Trunk ist nicht erlaubt',
  },
  netmaskRequired: { en: 'Netmask required', ch: '子网掩码为必填项', de: 'Netzmaske erforderlich' },
  invalidHost: {
    en: '{0} is not a valid IP address or host name',
    ch: '{0} 不是有效的 IP 地址或主机名',
    de: '{0} ist keine gültige IP-Adresse oder kein gültiger Hostname',
  },
  cannotBeLarger: {
    en: '{0} cannot be larger than {1}',
    ch: '{0} 不能大于 {1}',
    de: '{0} darf nicht größer als {1} sein',
  },
  trunkWrongType: {
    en: 'Trunk [{0}] is not an {1} trunk',
    ch: '中继 [{0}] 不是{1}中继',
    de: 'Trunk [{0}] ist kein {1}-Trunk',
  },
  routingRowsIngressOnly: {
    en: 'Routing rows apply to ingress trunks only',
    ch: '路由行仅适用于入向中继',
    de: 'Routing-Zeilen gelten nur für Eingangs-Trunks',
  },
  directionFixed: {
    en: 'The trunk type cannot be changed',
    ch: '中继类型不能更改',
    de: 'Der Trunk-Typ kann nicht geändert werden',
  },
  registrationNotPending: {
    en: 'This registration is not pending review',
    ch: '此注册不在待审核状态',
    de: 'Diese Registrierung wartet nicht auf Prüfung',
  },
  // rates (issue 3)
  codeEffectiveExists: {
    en: 'the code [{0}] with effective date [{1}] already exists',
    ch: '代码 [{0}] 生效日期为 [{1}] 的记录已存在',
    de: 'der Code [{0}] mit Gültigkeitsdatum [{1}] existiert bereits',
  },
  duplicateCodes: { en: 'duplicate codes [{0}]', ch: '重复的代码 [{0}]', de: 'doppelte Codes [{0}]' },
  effectiveBeforeEnd: {
    en: 'Effective date must be less than end date',
    ch: '生效日期必须早于结束日期',
    de: 'Das Gültigkeitsdatum muss vor dem Enddatum liegen',
  },
  invalidDate: { en: '{0} is not a valid date', ch: '{0} 不是有效日期', de: '{0} ist kein gültiges Datum' },
  rateDateFormatWrong: {
    en: 'Date format in rate file is wrong: {0} [{1}] (expected {2})',
    ch: '费率文件中的日期格式错误：{0} [{1}]（应为 {2}）',
    de: 'Datumsformat in der Tarifdatei ist falsch: {0} [{1}] (erwartet {2})',
  },
  decimalPlacesRange: {
    en: '{0} must be between 0 and 6',
    ch: '{0} 必须在 0 到 6 之间',
    de: '{0} muss zwischen 0 und 6 liegen',
  },
  importFailed: {
    en: 'Import error, please try again',
    ch: '导入错误，请重试',
    de: 'Importfehler, bitte erneut versuchen',
  },
  importRejected: {
    en: 'Import rejected: {0} row(s) with errors; nothing was changed',
    ch: '导入被拒绝：{0} 行有错误，未做任何更改',
    de: 'Import abgelehnt: {0} fehlerhafte Zeile(n); nichts wurde geändert',
  },
  importMissingColumn: {
    en: 'The file has no [{0}] column',
    ch: '文件中没有 [{0}] 列',
    de: 'Die Datei hat keine Spalte [{0}]',
  },
  importNoRows: { en: 'The file has no rows', ch: '文件没有数据行', de: 'Die Datei enthält keine Zeilen' },
  importBusy: {
    en: 'An import into this rate table is already running',
    ch: '该费率表已有导入正在进行',
    de: 'Für diese Tariftabelle läuft bereits ein Import',
  },
  npanxxSixDigits: {
    en: 'NPA-NXX must be 6 digits',
    ch: 'NPA-NXX 必须是 6 位数字',
    de: 'NPA-NXX muss aus 6 Ziffern bestehen',
  },
  ruleInactive: {
    en: 'The auto rate import rule is inactive',
    ch: '自动费率导入规则未启用',
    de: 'Die automatische Tarifimportregel ist inaktiv',
  },
  referralInvalid: {
    en: 'This referral link is not valid',
    ch: '此推荐链接无效',
    de: 'Dieser Empfehlungslink ist ungültig',
  },
  // routing (issue 3)
  routingInUse: {
    en: 'Unable to delete when static routing, dynamic routing or a routing plan is assigned to a client. {0} is used by {1}.',
    ch: '当静态路由、动态路由或路由计划已分配给客户时无法删除。{0} 正被 {1} 使用。',
    de: 'Löschen nicht möglich, solange statisches Routing, dynamisches Routing oder ein Routing-Plan einem Kunden zugewiesen ist. {0} wird verwendet von {1}.',
  },
  percentSum: {
    en: 'Percentage sum must be 100%',
    ch: '百分比总和必须为 100%',
    de: 'Die Summe der Prozentsätze muss 100% betragen',
  },
  atLeastOneTrunk: {
    en: 'Select at least one trunk',
    ch: '请至少选择一个中继',
    de: 'Mindestens einen Trunk auswählen',
  },
  routeNotDefined: {
    en: 'Static route, dynamic route, vendor trunk or routing plan not defined.',
    ch: '未定义静态路由、动态路由、供应商中继或路由计划。',
    de: 'Statische Route, dynamische Route, Lieferanten-Trunk oder Routing-Plan nicht definiert.',
  },
  switchKeyInvalid: {
    en: 'The switch API key is missing or not valid',
    ch: '交换机 API 密钥缺失或无效',
    de: 'Der Switch-API-Schlüssel fehlt oder ist ungültig',
  },
  trunkNotFound: {
    en: '{0}: trunk [{1}] does not exist',
    ch: '{0}：中继 [{1}] 不存在',
    de: '{0}: Trunk [{1}] existiert nicht',
  },
  rerateRangeTooLong: {
    en: 'A rerate covers at most {0} days',
    ch: '重新计费最多覆盖 {0} 天',
    de: 'Eine Neubewertung umfasst höchstens {0} Tage',
  },
  rerateNotPreviewed: {
    en: 'The rerate can be applied once its preview has finished',
    ch: '预览完成后才能应用重新计费',
    de: 'Die Neubewertung kann erst nach Abschluss der Vorschau angewendet werden',
  },
  rateTableMissing: {
    en: 'Rate table [{0}] does not exist',
    ch: '费率表 [{0}] 不存在',
    de: 'Tariftabelle [{0}] existiert nicht',
  },
  engineNotReady: {
    en: 'The routing engine is still loading the configuration; try again in a moment',
    ch: '路由引擎仍在加载配置，请稍后重试',
    de: 'Die Routing-Engine lädt die Konfiguration noch; bitte gleich erneut versuchen',
  },
  trunkHasNoHost: {
    en: 'Trunk [{0}] has no IP host to simulate calls from',
    ch: '中继 [{0}] 没有可用于模拟呼叫的 IP 主机',
    de: 'Trunk [{0}] hat keinen IP-Host, von dem Anrufe simuliert werden können',
  },
  invalidCallTime: {
    en: '{0} must be a date and time (ISO 8601)',
    ch: '{0} 必须是日期时间（ISO 8601）',
    de: '{0} muss ein Datum mit Uhrzeit sein (ISO 8601)',
  },
  // CDR ingest, rating and ledger (issue 10)
  cdrEndBeforeStart: {
    en: '{0} is before the start time',
    ch: '{0} 早于开始时间',
    de: '{0} liegt vor der Startzeit',
  },
  cdrDurationUnanswered: {
    en: '{0} must be 0 for an unanswered call',
    ch: '未接通的呼叫 {0} 必须为 0',
    de: '{0} muss bei einem nicht angenommenen Anruf 0 sein',
  },
  cdrAnswerOutside: {
    en: '{0} must lie between the start and the end time',
    ch: '{0} 必须在开始时间和结束时间之间',
    de: '{0} muss zwischen Start- und Endzeit liegen',
  },
  cdrDurationTooLong: {
    en: '{0} is longer than the time from answer to end',
    ch: '{0} 超过了从接通到结束的时间',
    de: '{0} ist länger als die Zeit von der Annahme bis zum Ende',
  },
  // CDR search (issue 10 section 4)
  cdrRangeTooLong: {
    en: 'The time range may span at most {0} days',
    ch: '时间范围最多为 {0} 天',
    de: 'Der Zeitraum darf höchstens {0} Tage umfassen',
  },
  cdrRangeEmpty: {
    en: '{0} must be after the start time',
    ch: '{0} 必须晚于开始时间',
    de: '{0} muss nach der Startzeit liegen',
  },
  cdrDownloadTooLong: {
    en: 'A direct download covers at most {0} days; narrow the time range',
    ch: '直接下载最多覆盖 {0} 天，请缩小时间范围',
    de: 'Ein direkter Download umfasst höchstens {0} Tage; bitte den Zeitraum verkleinern',
  },
  cdrUnknownField: {
    en: '{0}: unknown CDR field',
    ch: '{0}：未知的 CDR 字段',
    de: '{0}: unbekanntes CDR-Feld',
  },
  cdrFieldNotForSide: {
    en: '{0} cannot be shown to this side',
    ch: '{0} 不能向此方显示',
    de: '{0} kann dieser Seite nicht angezeigt werden',
  },
  cdrFieldRequired: {
    en: '{0} is a required field and stays visible',
    ch: '{0} 是必需字段，必须保持可见',
    de: '{0} ist ein Pflichtfeld und bleibt sichtbar',
  },
  cdrBadCursor: {
    en: '{0} is not a page position of this list',
    ch: '{0} 不是此列表的有效分页位置',
    de: '{0} ist keine Seitenposition dieser Liste',
  },
  // rate delivery (rate e-mail templates, sending rate decks, download links)
  fromEmailRequired: {
    en: 'From e-mail must be selected',
    ch: '必须选择发件人电子邮件',
    de: 'Absender-E-Mail muss ausgewählt werden',
  },
  deadlineInFuture: {
    en: 'The download deadline must be later than the current date',
    ch: '下载截止日期必须晚于当前日期',
    de: 'Die Download-Frist muss nach dem aktuellen Datum liegen',
  },
  selectRecipients: {
    en: 'Select at least one carrier or enter an e-mail address',
    ch: '请至少选择一个运营商或输入一个电子邮件地址',
    de: 'Mindestens einen Carrier auswählen oder eine E-Mail-Adresse eingeben',
  },
  carrierHasNoRateEmail: {
    en: 'Carrier [{0}] has no rates e-mail or main e-mail',
    ch: '运营商 [{0}] 没有费率电子邮件或主电子邮件',
    de: 'Carrier [{0}] hat keine Tarif-E-Mail und keine Haupt-E-Mail',
  },
  rateLinkInvalid: {
    en: 'This rate download link is not valid',
    ch: '此费率下载链接无效',
    de: 'Dieser Link zum Herunterladen der Tarife ist ungültig',
  },
  rateLinkExpired: {
    en: 'This rate download link expired on {0}',
    ch: '此费率下载链接已于 {0} 过期',
    de: 'Dieser Link zum Herunterladen der Tarife ist am {0} abgelaufen',
  },
  sendDeadlinePassed: {
    en: 'The download deadline of this send passed on {0}; send the rate table again',
    ch: '此次发送的下载截止日期已于 {0} 过去，请重新发送费率表',
    de: 'Die Download-Frist dieses Versands ist am {0} abgelaufen; die Tariftabelle bitte erneut senden',
  },
  sendStillRunning: {
    en: 'This send is still running; try again when it has finished',
    ch: '此次发送仍在进行中，请在完成后重试',
    de: 'Dieser Versand läuft noch; bitte nach dem Abschluss erneut versuchen',
  },
  rateReminderSubject: { en: 'Reminder: {0}', ch: '提醒：{0}', de: 'Erinnerung: {0}' },
  rateFileAttached: { en: '{0} (attached)', ch: '{0}（见附件）', de: '{0} (im Anhang)' },
  invalidOcn: {
    en: '{0} must be an OCN (4 letters or digits) or an origid (UUID)',
    ch: '{0} 必须是 OCN（4 位字母或数字）或 origid（UUID）',
    de: '{0} muss eine OCN (4 Buchstaben oder Ziffern) oder eine origid (UUID) sein',
  },
  trunkHasDigitMap: {
    en: 'Trunk [{0}] already uses digital map [{1}]',
    ch: '中继 [{0}] 已使用数字映射 [{1}]',
    de: 'Trunk [{0}] verwendet bereits die Ziffernzuordnung [{1}]',
  },
  // rate reports
  trunksMustBeActive: {
    en: 'Please activate the trunk for any modification: {0}',
    ch: '请先激活中继再进行修改：{0}',
    de: 'Bitte aktivieren Sie den Trunk, um ihn zu ändern: {0}',
  },
  // rate generation
  shouldBeGreater: {
    en: '{0} should be greater than {1}',
    ch: '{0} 应大于 {1}',
    de: '{0} sollte größer als {1} sein',
  },
  rangesOverlap: {
    en: 'Rate ranges must not overlap: [{0}, {1}) and [{2}, {3})',
    ch: '费率区间不能重叠：[{0}, {1}) 与 [{2}, {3})',
    de: 'Tarifbereiche dürfen sich nicht überschneiden: [{0}, {1}) und [{2}, {3})',
  },
  rateTableTypeMismatch: {
    en: 'The rate table must be of type {0}, like the generated rates',
    ch: '费率表类型必须与生成的费率相同：{0}',
    de: 'Die Tariftabelle muss wie die erzeugten Tarife vom Typ {0} sein',
  },
  generationNotFinished: {
    en: 'Only a finished rate generation can be applied',
    ch: '只能应用已完成的费率生成',
    de: 'Nur eine abgeschlossene Tariferzeugung kann übernommen werden',
  },
  analysisColumnNotJurisdictional: {
    en: 'Only a US jurisdictional generation has intra, inter, IJ and local rates to compare',
    ch: '只有美国管辖区费率生成才有州内、州际、IJ 和本地费率可比较',
    de: 'Nur eine US-jurisdiktionale Tariferzeugung hat Intra-, Inter-, IJ- und Ortstarife zum Vergleichen',
  },
  generationNotFinishedAnalysis: {
    en: 'Only a finished rate generation can be analysed',
    ch: '只能分析已完成的费率生成',
    de: 'Nur eine abgeschlossene Tariferzeugung kann analysiert werden',
  },
  generationFailed: {
    en: 'Rate generation failed, please try again',
    ch: '费率生成失败，请重试',
    de: 'Tariferzeugung fehlgeschlagen, bitte erneut versuchen',
  },
  generationNoRates: {
    en: 'No rates: no vendor prices a code and there is no default rate',
    ch: '没有费率：没有供应商为任何号码定价，且没有默认费率',
    de: 'Keine Tarife: kein Lieferant bepreist einen Code und es gibt keinen Standardtarif',
  },
  jobNotKillable: {
    en: 'Only a pending or running job can be killed',
    ch: '只能终止等待中或运行中的任务',
    de: 'Nur ein wartender oder laufender Auftrag kann abgebrochen werden',
  },
  jobNotRerunnable: {
    en: 'A pending or running job cannot be run again',
    ch: '等待中或运行中的任务不能再次运行',
    de: 'Ein wartender oder laufender Auftrag kann nicht erneut ausgeführt werden',
  },
  exportNotReady: {
    en: 'The export is not finished yet',
    ch: '导出尚未完成',
    de: 'Der Export ist noch nicht fertig',
  },
  statsGroupNotAllowed: {
    en: 'This report cannot be grouped by {0} for you',
    ch: '您不能按 {0} 分组此报表',
    de: 'Dieser Bericht kann für Sie nicht nach {0} gruppiert werden',
  },
  statsRangeTooLong: {
    en: 'A report covers at most {0} days',
    ch: '报表最多覆盖 {0} 天',
    de: 'Ein Bericht umfasst höchstens {0} Tage',
  },
  statsGroupingOff: {
    en: 'Report grouping is turned off for you: the report keeps its own grouping',
    ch: '您的报表分组已关闭：报表只能使用其默认分组',
    de: 'Die Gruppierung von Berichten ist für Sie ausgeschaltet: der Bericht behält seine Gruppierung',
  },
  statsCostHidden: {
    en: 'You may not see cost and profit in reports',
    ch: '您无权在报表中查看成本和利润',
    de: 'Sie dürfen Kosten und Gewinn in Berichten nicht sehen',
  },
  // monitoring (issue 15)
  cannotBeEmpty: { en: '{0} cannot be empty', ch: '{0} 不能为空', de: '{0} darf nicht leer sein' },
  scheduleRequired: {
    en: 'An execution schedule must be selected',
    ch: '必须选择执行计划',
    de: 'Ein Ausführungsplan muss ausgewählt werden',
  },
  thresholdRequired: {
    en: 'Set at least one threshold',
    ch: '请至少设置一个阈值',
    de: 'Mindestens einen Schwellenwert festlegen',
  },
  routeBlockNeedsCodes: {
    en: 'Blocking the route needs the included codes',
    ch: '封锁路由需要指定包含的代码',
    de: 'Zum Sperren der Route müssen die eingeschlossenen Codes angegeben werden',
  },
  codesRequired: {
    en: 'List the codes to include or exclude',
    ch: '请列出要包含或排除的代码',
    de: 'Die ein- oder auszuschließenden Codes angeben',
  },
  numberRangeInvalid: {
    en: '[{0}] is not a number range (a prefix, or from-to of the same length)',
    ch: '[{0}] 不是号码范围（前缀，或长度相同的起止号码）',
    de: '[{0}] ist kein Nummernbereich (ein Präfix oder von-bis gleicher Länge)',
  },
  loopScopeRequired: {
    en: 'List the ingress trunks or the number ranges to watch',
    ch: '请列出要监视的入向中继或号码范围',
    de: 'Die zu überwachenden Eingangstrunks oder Nummernbereiche angeben',
  },
  blockAlreadyLifted: {
    en: 'This block has already been lifted',
    ch: '此封锁已解除',
    de: 'Diese Sperre ist bereits aufgehoben',
  },
  // billing (issue 12, docs/billing.md)
  invoiceNotOpen: {
    en: 'Invoice {0} is not an open invoice of this carrier',
    ch: '发票 {0} 不是该运营商的未结发票',
    de: 'Rechnung {0} ist keine offene Rechnung dieses Carriers',
  },
  allocationOverInvoice: {
    en: 'Invoice {0} has only {1} left to pay',
    ch: '发票 {0} 仅剩 {1} 未付',
    de: 'Auf Rechnung {0} sind nur noch {1} offen',
  },
  allocationsExceedPayment: {
    en: 'The allocations ({0}) exceed the payment ({1})',
    ch: '分配金额（{0}）超过付款金额（{1}）',
    de: 'Die Zuordnungen ({0}) übersteigen die Zahlung ({1})',
  },
  paymentCanceled: {
    en: 'The payment is already canceled',
    ch: '该付款已取消',
    de: 'Die Zahlung ist bereits storniert',
  },
  noteCanceled: {
    en: 'The note is already canceled',
    ch: '该票据已取消',
    de: 'Die Gutschrift bzw. Belastung ist bereits storniert',
  },
  invoiceOverlap: {
    en: 'Invoice {0} of this carrier already covers part of this period',
    ch: '该运营商的发票 {0} 已覆盖此期间的一部分',
    de: 'Rechnung {0} dieses Carriers deckt bereits einen Teil dieses Zeitraums ab',
  },
  invoiceAlreadyVoided: {
    en: 'The invoice is already voided',
    ch: '该发票已作废',
    de: 'Die Rechnung ist bereits storniert',
  },
  invoiceNotVoided: {
    en: 'Only a voided invoice can be reversed',
    ch: '只有已作废的发票才能恢复',
    de: 'Nur eine stornierte Rechnung kann wiederhergestellt werden',
  },
  invoiceLinkExpired: {
    en: 'The invoice link has expired or is not valid',
    ch: '发票链接已过期或无效',
    de: 'Der Rechnungslink ist abgelaufen oder ungültig',
  },
  invoiceDeliveryFailed: {
    en: 'Delivery of invoice #{0} failed',
    ch: '发票 #{0} 发送失败',
    de: 'Zustellung der Rechnung #{0} fehlgeschlagen',
  },
  invoiceMailPdfLink: {
    en: 'Invoice (PDF): {0}',
    ch: '发票（PDF）：{0}',
    de: 'Rechnung (PDF): {0}',
  },
  invoiceMailCdrLink: {
    en: 'CDRs (CSV): {0}',
    ch: '话单（CSV）：{0}',
    de: 'CDRs (CSV): {0}',
  },
  invoiceMailLinkDays: {
    en: 'The link is valid for {0} days.',
    ch: '链接有效期为 {0} 天。',
    de: 'Der Link ist {0} Tage gültig.',
  },
  extraChargeNotActive: {
    en: 'The extra charge is not active',
    ch: '该额外费用未生效',
    de: 'Die Zusatzgebühr ist nicht aktiv',
  },
  extraChargeCanceled: {
    en: 'This charge is already canceled',
    ch: '该费用已取消',
    de: 'Diese Belastung ist bereits storniert',
  },
  currencyMismatch: {
    en: 'The carrier bills in {0}',
    ch: '该运营商以 {0} 结算',
    de: 'Der Carrier rechnet in {0} ab',
  },
  vendorInvoiceSettled: {
    en: 'The vendor invoice is already settled',
    ch: '该供应商发票已结清',
    de: 'Die Lieferantenrechnung ist bereits abgeschlossen',
  },
  vendorInvoiceNotDisputed: {
    en: 'Dispute the invoice before agreeing on another amount',
    ch: '请先对发票提出异议，再约定其他金额',
    de: 'Bestreiten Sie die Rechnung, bevor Sie einen anderen Betrag vereinbaren',
  },
  noBillingEmail: {
    en: 'The carrier has no billing e-mail',
    ch: '该运营商没有账单邮箱',
    de: 'Der Carrier hat keine Rechnungs-E-Mail-Adresse',
  },
  noPaymentTerm: {
    en: 'Failed to start auto invoice: the carrier has no payment term',
    ch: '启动自动发票失败：该运营商没有付款条件',
    de: 'Automatische Rechnung konnte nicht gestartet werden: der Carrier hat keine Zahlungsbedingung',
  },
  periodEndBeforeStart: {
    en: 'End date must be later than start date',
    ch: '结束日期必须晚于开始日期',
    de: 'Das Enddatum muss nach dem Startdatum liegen',
  },
  // mail senders, templates, notifications, online payment (issue 12, docs/mail.md)
  senderInUse: {
    en: 'Email sender is already in use for a mail template',
    ch: '邮件发件人已被邮件模板使用',
    de: 'Der Mail-Absender wird bereits von einer Mail-Vorlage verwendet',
  },
  templateMissing: {
    en: '{0} email template is not defined or defined incorrectly',
    ch: '{0}邮件模板未定义或定义不正确',
    de: 'Die E-Mail-Vorlage {0} ist nicht oder fehlerhaft definiert',
  },
  unknownMailTag: {
    en: 'Unknown tag {0} (the tags of this event are listed below the editor)',
    ch: '未知标签 {0}（此事件可用的标签列在编辑器下方）',
    de: 'Unbekanntes Tag {0} (die Tags dieses Ereignisses stehen unter dem Editor)',
  },
  noMailSender: {
    en: 'No mail sender is configured',
    ch: '未配置邮件发件人',
    de: 'Es ist kein Mail-Absender konfiguriert',
  },
  minTopUp: {
    en: 'Minimum credit addition is {0}',
    ch: '最低充值金额为 {0}',
    de: 'Die Mindestaufladung beträgt {0}',
  },
  paymentProviderDisabled: {
    en: 'This payment provider is not enabled',
    ch: '此支付服务商未启用',
    de: 'Dieser Zahlungsanbieter ist nicht aktiviert',
  },
  publishableKeyMissing: {
    en: "The card payment provider's publishable key does not exist",
    ch: '银行卡支付服务商的公开密钥不存在',
    de: 'Der öffentliche Schlüssel des Kartenzahlungsanbieters fehlt',
  },
  paymentFailed: {
    en: 'Payment canceled or failed: {0}',
    ch: '付款已取消或失败：{0}',
    de: 'Zahlung abgebrochen oder fehlgeschlagen: {0}',
  },
  webhookSignatureInvalid: {
    en: 'The webhook signature is not valid',
    ch: 'Webhook 签名无效',
    de: 'Die Webhook-Signatur ist ungültig',
  },
  // agents (issue 15)
  payoutExceedsOwed: {
    en: 'The payout exceeds the commission owed ({0})',
    ch: '付款超过应付佣金（{0}）',
    de: 'Die Auszahlung übersteigt die geschuldete Provision ({0})',
  },
  agentPortalEditDenied: {
    en: 'Your account may not edit clients',
    ch: '您的账户无权编辑客户',
    de: 'Ihr Konto darf keine Kunden bearbeiten',
  },
  agentInactive: {
    en: 'The agent [{0}] is inactive',
    ch: '代理 [{0}] 未启用',
    de: 'Der Agent [{0}] ist inaktiv',
  },
  statsNotByHost: {
    en: 'Reports by host cannot filter or group by code, release cause or duration',
    ch: '按主机的报表不能按号码前缀、释放原因或时长筛选或分组',
    de: 'Berichte nach Host können nicht nach Code, Auslösegrund oder Dauer filtern oder gruppieren',
  },
  // CDR upload on the CDR screen (issue 10 section 1)
  cdrFileRefused: {
    en: 'The file was not imported, nothing was stored: row {0}, field {1}',
    ch: '文件未导入，未存储任何内容：第 {0} 行，字段 {1}',
    de: 'Die Datei wurde nicht importiert, nichts wurde gespeichert: Zeile {0}, Feld {1}',
  },
  cdrFileProblem: {
    en: 'line {0}, {1}: {2}',
    ch: '第 {0} 行，{1}：{2}',
    de: 'Zeile {0}, {1}: {2}',
  },
  cdrFileEmpty: {
    en: 'The file holds no CDR',
    ch: '文件中没有 CDR',
    de: 'Die Datei enthält keinen CDR',
  },
  cdrFileUnknownColumns: {
    en: 'Unknown column(s) in the header row: {0}',
    ch: '标题行中有未知的列：{0}',
    de: 'Unbekannte Spalte(n) in der Kopfzeile: {0}',
  },
  cdrFileNotJson: {
    en: 'not a JSON object',
    ch: '不是 JSON 对象',
    de: 'kein JSON-Objekt',
  },
  // DID / origination (issue 14)
  didNothingSelected: { en: 'Nothing selected', ch: '未选择任何内容', de: 'Nichts ausgewählt' },
  didRequired: {
    en: 'The DID field cannot be empty',
    ch: 'DID 字段不能为空',
    de: 'Das DID-Feld darf nicht leer sein',
  },
  didInvalid: { en: 'DID is not valid', ch: 'DID 无效', de: 'DID ist ungültig' },
  didInvalidLine: {
    en: 'DID is not valid: line {0} ({1})',
    ch: 'DID 无效：第 {0} 行（{1}）',
    de: 'DID ist ungültig: Zeile {0} ({1})',
  },
  didOneField: {
    en: 'Only one field for DID import: line {0} has more ({1})',
    ch: 'DID 导入只能有一个字段：第 {0} 行有多个（{1}）',
    de: 'Nur ein Feld für den DID-Import: Zeile {0} hat mehrere ({1})',
  },
  didTooMany: {
    en: 'Maximum {0} numbers',
    ch: '最多 {0} 个号码',
    de: 'Höchstens {0} Nummern',
  },
  didCsvOnly: {
    en: 'File upload is CSV only',
    ch: '只能上传 CSV 文件',
    de: 'Nur CSV-Dateien können hochgeladen werden',
  },
  didDuplicateHandling: {
    en: 'Duplicate handling is overwrite or ignore',
    ch: '重复处理只能是覆盖或忽略',
    de: 'Duplikate werden überschrieben oder ignoriert',
  },
  didRangeRuleRequired: {
    en: 'Vendor billing rule is mandatory when adding by range',
    ch: '按范围添加时必须选择供应商计费规则',
    de: 'Beim Hinzufügen per Bereich ist die Abrechnungsregel des Lieferanten Pflicht',
  },
  didRuleInUse: {
    en: 'Cannot delete a DID billing plan that is associated with DIDs',
    ch: '无法删除已关联 DID 的计费方案',
    de: 'Ein DID-Abrechnungsplan, der DIDs zugeordnet ist, kann nicht gelöscht werden',
  },
  didNotFound: {
    en: 'User or DID does not exist',
    ch: '用户或 DID 不存在',
    de: 'Benutzer oder DID existiert nicht',
  },
  didWrongState: {
    en: 'DID {0} is {1} and cannot be {2}',
    ch: 'DID {0} 当前为 {1}，不能{2}',
    de: 'DID {0} ist {1} und kann nicht {2} werden',
  },
  didNotVendor: {
    en: '{0} is not a DID vendor',
    ch: '{0} 不是 DID 供应商',
    de: '{0} ist kein DID-Lieferant',
  },
  didNotClient: {
    en: '{0} is not a DID client',
    ch: '{0} 不是 DID 客户',
    de: '{0} ist kein DID-Kunde',
  },
  didCredentialsPair: {
    en: 'Portal username and password go together',
    ch: '门户用户名和密码必须同时填写',
    de: 'Portal-Benutzername und Passwort gehören zusammen',
  },
  didNoNumbers: {
    en: 'No numbers to add',
    ch: '没有要添加的号码',
    de: 'Keine Nummern zum Hinzufügen',
  },
  didRangeTooLong: {
    en: 'The range would need more digits than its first number has',
    ch: '该范围超出了起始号码的位数',
    de: 'Der Bereich bräuchte mehr Stellen als seine erste Nummer',
  },
  didPortalOnly: {
    en: 'DID pages are for origination clients',
    ch: 'DID 页面仅适用于始发客户',
    de: 'DID-Seiten sind für Originierungskunden',
  },
  didPortDateInPast: {
    en: 'The requested date cannot be before today ({0})',
    ch: '请求日期不能早于今天（{0}）',
    de: 'Das gewünschte Datum darf nicht vor heute ({0}) liegen',
  },
  didPortHeld: {
    en: 'DID {0} is already a number of this platform: there is nothing to port in',
    ch: 'DID {0} 已经是本平台的号码，无需携入',
    de: 'DID {0} ist bereits eine Nummer dieser Plattform: es gibt nichts zu portieren',
  },
  didPortMove: {
    en: 'A port-in request that is {0} cannot be moved to {1}',
    ch: '状态为 {0} 的携号转入请求不能改为 {1}',
    de: 'Ein Portierungsantrag im Status {0} kann nicht auf {1} gesetzt werden',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof catalogue;
export const MESSAGE_KEYS = Object.keys(catalogue) as MessageKey[];

export function message(
  key: MessageKey,
  lang: Language,
  params?: Record<string, string | number> | readonly (string | number)[],
): string {
  return format(catalogue[key][lang], params);
}

/** All messages of one language, for the web app's i18n resources. */
export function messagesFor(lang: Language): Record<MessageKey, string> {
  const out = {} as Record<MessageKey, string>;
  for (const k of MESSAGE_KEYS) out[k] = catalogue[k][lang];
  return out;
}
