import type { Language } from './catalog.js';

type Local = Record<Exclude<Language, 'en'>, string>;

/** One text in sr, bs and hr. */
const t = (sr: string, bs: string, hr: string = bs): Local => ({ sr, bs, hr });
/** The same text in the three languages (Latin script). */
const same = (text: string): Local => t(text, text, text);

/**
 * Error detail messages in the organization's language (A18, issue 25 item 6); the field keys stay
 * English. Exact messages first, then the validator's messages with their variable part. A
 * message not listed here is sent in English.
 */
const EXACT: Record<string, Local> = {
  'is required': { sr: 'je obavezno', bs: 'je obavezno', hr: 'je obavezno' },
  'must not be blank': { sr: 'ne sme biti prazno', bs: 'ne smije biti prazno', hr: 'ne smije biti prazno' },
  'must be string': { sr: 'mora biti tekst', bs: 'mora biti tekst', hr: 'mora biti tekst' },
  'must be number': { sr: 'mora biti broj', bs: 'mora biti broj', hr: 'mora biti broj' },
  'must be integer': { sr: 'mora biti ceo broj', bs: 'mora biti cijeli broj', hr: 'mora biti cijeli broj' },
  'must be boolean': { sr: 'mora biti true ili false', bs: 'mora biti true ili false', hr: 'mora biti true ili false' },
  'must be object': { sr: 'mora biti objekat', bs: 'mora biti objekat', hr: 'mora biti objekt' },
  'must be array': { sr: 'mora biti niz', bs: 'mora biti niz', hr: 'mora biti niz' },
  'must be at most 1 MiB': {
    sr: 'sme imati najviše 1 MiB',
    bs: 'smije imati najviše 1 MiB',
    hr: 'smije imati najviše 1 MiB',
  },
  'must be at most 5 MB': {
    sr: 'sme imati najviše 5 MB',
    bs: 'smije imati najviše 5 MB',
    hr: 'smije imati najviše 5 MB',
  },
  'must be at most 10 MB': {
    sr: 'sme imati najviše 10 MB',
    bs: 'smije imati najviše 10 MB',
    hr: 'smije imati najviše 10 MB',
  },
  'is empty': { sr: 'je prazno', bs: 'je prazno', hr: 'je prazno' },
  // E-invoice delivery (SEF, Croatian fiscalization; CONTRACT D1-D5).
  'the information intermediary is for organizations in Croatia (HR)': t(
    'informacioni posrednik je za organizacije u Hrvatskoj (HR)',
    'informacijski posrednik je za organizacije u Hrvatskoj (HR)',
  ),
  'the information intermediary is not enabled for the organization': t(
    'informacioni posrednik nije uključen za organizaciju',
    'informacijski posrednik nije uključen za organizaciju',
  ),
  'waiting for the e-invoice to be accepted by the information intermediary': t(
    'čeka se da informacioni posrednik prihvati e-fakturu',
    'čeka se da informacijski posrednik prihvati e-fakturu',
    'čeka se da informacijski posrednik prihvati e-račun',
  ),
  'no information intermediary is set up': t(
    'informacioni posrednik nije podešen',
    'informacijski posrednik nije podešen',
    'informacijski posrednik nije postavljen',
  ),
  'fiscalization is for organizations in Croatia (HR)': t(
    'fiskalizacija je za organizacije u Hrvatskoj (HR)',
    'fiskalizacija je za organizacije u Hrvatskoj (HR)',
  ),
  'cannot be stored: SEF_KEY_ENCRYPTION_KEY is not configured': t(
    'ne može se sačuvati: SEF_KEY_ENCRYPTION_KEY nije podešen',
    'ne može se sačuvati: SEF_KEY_ENCRYPTION_KEY nije podešen',
    'ne može se spremiti: SEF_KEY_ENCRYPTION_KEY nije postavljen',
  ),
  'not a PKCS#12 file this password opens, or it holds no key': t(
    'nije PKCS#12 datoteka koju ova lozinka otvara, ili u njoj nema ključa',
    'nije PKCS#12 datoteka koju ova lozinka otvara, ili u njoj nema ključa',
    'nije PKCS#12 datoteka koju ova zaporka otvara, ili u njoj nema ključa',
  ),
  'not enabled for the organization (PUT /organization/fiscalization)': t(
    'nije uključeno za organizaciju (PUT /organization/fiscalization)',
    'nije uključeno za organizaciju (PUT /organization/fiscalization)',
  ),
  'only SEF purchase invoices are decided here': t(
    'ovde se odlučuje samo o ulaznim fakturama iz SEF-a',
    'ovdje se odlučuje samo o ulaznim fakturama iz SEF-a',
    'ovdje se odlučuje samo o ulaznim računima iz SEF-a',
  ),
  'SEF is not set up for the organization': t(
    'SEF nije podešen za organizaciju',
    'SEF nije podešen za organizaciju',
    'SEF nije postavljen za organizaciju',
  ),
  'the expense was already created': t('trošak je već napravljen', 'trošak je već napravljen', 'trošak je već stvoren'),
  'a rejected invoice is no expense': t(
    'odbijena faktura nije trošak',
    'odbijena faktura nije trošak',
    'odbijeni račun nije trošak',
  ),
  'SEF is for organizations in Serbia (RS)': t(
    'SEF je za organizacije u Srbiji (RS)',
    'SEF je za organizacije u Srbiji (RS)',
  ),
  'is required to enable SEF': t('je obavezno da bi se uključio SEF', 'je obavezno da bi se uključio SEF'),
  'SEF is not enabled for the organization (PUT /organization/sef)': t(
    'SEF nije uključen za organizaciju (PUT /organization/sef)',
    'SEF nije uključen za organizaciju (PUT /organization/sef)',
  ),
  'the invoice is not registered in SEF': t(
    'faktura nije registrovana u SEF-u',
    'faktura nije registrovana u SEF-u',
    'račun nije registriran u SEF-u',
  ),
  'is already used': { sr: 'je već u upotrebi', bs: 'je već u upotrebi', hr: 'je već u upotrebi' },
  'account not found': { sr: 'konto nije pronađen', bs: 'konto nije pronađen', hr: 'konto nije pronađen' },
  'account is inactive': { sr: 'konto nije aktivan', bs: 'konto nije aktivan', hr: 'konto nije aktivan' },
  // A journal entry of several lines (POST /transactions/entries).
  'needs an amount above zero on exactly one side, debit or credit': t(
    'treba iznos veći od nule na tačno jednoj strani, duguje ili potražuje',
    'treba iznos veći od nule na tačno jednoj strani, duguje ili potražuje',
    'treba iznos veći od nule na točno jednoj strani, duguje ili potražuje',
  ),
  'is on both the debit and the credit side of the entry': t(
    'je i na dugovnoj i na potražnoj strani naloga',
    'je i na dugovnoj i na potražnoj strani naloga',
  ),
  'must not be after toDate': {
    sr: 'ne sme biti posle toDate',
    bs: 'ne smije biti nakon toDate',
    hr: 'ne smije biti nakon toDate',
  },
  'is required for mark-paid': {
    sr: 'je obavezno za mark-paid',
    bs: 'je obavezno za mark-paid',
    hr: 'je obavezno za mark-paid',
  },
  'a CSV file is required': {
    sr: 'potrebna je CSV datoteka',
    bs: 'potrebna je CSV datoteka',
    hr: 'potrebna je CSV datoteka',
  },
  'must be a file, not a text field': {
    sr: 'mora biti datoteka, ne tekstualno polje',
    bs: 'mora biti datoteka, ne tekstualno polje',
    hr: 'mora biti datoteka, ne tekstualno polje',
  },
  'only one file may be sent': {
    sr: 'sme se poslati samo jedna datoteka',
    bs: 'smije se poslati samo jedna datoteka',
    hr: 'smije se poslati samo jedna datoteka',
  },
  'is invalid': t('nije ispravno', 'nije ispravno'),
  'must be null': t('mora biti null', 'mora biti null'),
  'must not have additional properties': t('ne sme imati dodatna polja', 'ne smije imati dodatna polja'),
  'must match a schema in anyOf': t('nije ni jedan od dozvoljenih oblika', 'nije nijedan od dozvoljenih oblika'),
  'must match exactly one schema in oneOf': t(
    'mora imati tačno jedan od dozvoljenih oblika',
    'mora imati tačno jedan od dozvoljenih oblika',
  ),
  'must be equal to constant': t('mora imati propisanu vrednost', 'mora imati propisanu vrijednost'),
  'must be equal to one of the allowed values': t(
    'mora biti jedna od dozvoljenih vrednosti',
    'mora biti jedna od dozvoljenih vrijednosti',
  ),
  'must not have duplicate items': t('ne sme imati ponovljene stavke', 'ne smije imati ponovljene stavke'),
  'must not contain U+0000 or unpaired surrogates': t(
    'ne sme sadržati U+0000 ni nesparene surogate',
    'ne smije sadržavati U+0000 ni nesparene surogate',
  ),
  'is not a valid URL': t('nije ispravan URL', 'nije ispravan URL'),
  // lib/multipart-form.ts, lib/pagination.ts
  'has more parts than the form takes': t(
    'ima više delova nego što obrazac prima',
    'ima više dijelova nego što obrazac prima',
  ),
  'must be an integer of at least 1': t('mora biti ceo broj, najmanje 1', 'mora biti cijeli broj, najmanje 1'),
  'must be an integer between 1 and 100': t('mora biti ceo broj od 1 do 100', 'mora biti cijeli broj od 1 do 100'),
  // accounts, organization, ledger
  'the account has ledger transactions': t('konto ima knjiženja', 'konto ima knjiženja'),
  'the account has sub-accounts': t('konto ima potkonta', 'konto ima potkonta'),
  'the account is used by automatic postings': t(
    'konto koriste automatska knjiženja',
    'konto koriste automatska knjiženja',
  ),
  'the account is used by invoice lines': t(
    'konto je naveden na stavkama faktura',
    'konto je naveden na stavkama faktura',
    'konto je naveden na stavkama računa',
  ),
  'the account is used by expenses': t('konto je naveden na troškovima', 'konto je naveden na troškovima'),
  'the account is used by a bank account': t(
    'konto pripada bankovnom računu',
    'konto pripada bankovnom računu',
    'konto pripada bankovnom računu',
  ),
  'must be 1-5': same('mora biti 1-5'),
  'must be an account of the same type': t('mora biti konto iste vrste', 'mora biti konto iste vrste'),
  'must not be the account itself': t('ne sme biti sam taj konto', 'ne smije biti sam taj konto'),
  "must not be one of the account's own sub-accounts": t(
    'ne sme biti jedno od potkonta ovog konta',
    'ne smije biti jedno od potkonta ovog konta',
  ),
  'cannot change once ledger transactions exist': t(
    'ne može se menjati kada postoje knjiženja',
    'ne može se mijenjati kada postoje knjiženja',
  ),
  'must differ from debitAccountId': t(
    'mora se razlikovati od debitAccountId',
    'mora se razlikovati od debitAccountId',
  ),
  'a reversal cannot be reversed': t('storno se ne može stornirati', 'storno se ne može stornirati'),
  'the entry is already reversed': t(
    'nalog je već storniran',
    'nalog je već storniran',
    'temeljnica je već stornirana',
  ),
  'the posting is already reversed': t('knjiženje je već stornirano', 'knjiženje je već stornirano'),
  'a locked posting is reversed through its document': t(
    'zaključano knjiženje se stornira preko svog dokumenta',
    'zaključano knjiženje se stornira preko svog dokumenta',
  ),
  'a posting of a journal entry is reversed with its entry': t(
    'knjiženje naloga se stornira zajedno sa nalogom',
    'knjiženje naloga se stornira zajedno s nalogom',
    'knjiženje temeljnice stornira se zajedno s temeljnicom',
  ),
  'ledger transaction not found': t('knjiženje nije pronađeno', 'knjiženje nije pronađeno'),
  'ledger account not found': t('konto nije pronađen', 'konto nije pronađen'),
  // auth
  'is already enabled; disable it first': t(
    'je već uključeno; prvo ga isključite',
    'je već uključeno; prvo ga isključite',
  ),
  'sign in again (password and code) within REAUTH_MAX_AGE to disable 2FA': t(
    'prijavite se ponovo (lozinka i kod) da biste isključili 2FA',
    'prijavite se ponovo (lozinka i kod) da biste isključili 2FA',
    'prijavite se ponovno (lozinka i kôd) da biste isključili 2FA',
  ),
  'must be a valid Croatian OIB (11 digits with a correct check digit)': t(
    'mora biti ispravan hrvatski OIB (11 cifara sa ispravnom kontrolnom cifrom)',
    'mora biti ispravan hrvatski OIB (11 cifara s ispravnom kontrolnom cifrom)',
    'mora biti ispravan OIB (11 znamenki s ispravnom kontrolnom znamenkom)',
  ),
  'must be a valid Serbian PIB (9 digits with a correct check digit, "RS" prefix optional)': t(
    'mora biti ispravan PIB (9 cifara sa ispravnom kontrolnom cifrom, prefiks "RS" nije obavezan)',
    'mora biti ispravan srpski PIB (9 cifara s ispravnom kontrolnom cifrom, prefiks "RS" nije obavezan)',
    'mora biti ispravan srpski PIB (9 znamenki s ispravnom kontrolnom znamenkom, prefiks "RS" nije obavezan)',
  ),
  'must be a valid Croatian OIB (11 digits with a correct check digit, "HR" prefix optional)': t(
    'mora biti ispravan hrvatski OIB (11 cifara sa ispravnom kontrolnom cifrom, prefiks "HR" nije obavezan)',
    'mora biti ispravan hrvatski OIB (11 cifara s ispravnom kontrolnom cifrom, prefiks "HR" nije obavezan)',
    'mora biti ispravan OIB (11 znamenki s ispravnom kontrolnom znamenkom, prefiks "HR" nije obavezan)',
  ),
  // banking
  'send the CSV as multipart/form-data': t(
    'pošaljite CSV kao multipart/form-data',
    'pošaljite CSV kao multipart/form-data',
  ),
  'bank account not found': t('bankovni račun nije pronađen', 'bankovni račun nije pronađen'),
  'bank transaction not found on this bank account': t(
    'bankovna transakcija nije pronađena na ovom računu',
    'bankovna transakcija nije pronađena na ovom računu',
  ),
  'already reconciled': t('već je usaglašeno', 'već je usaglašeno', 'već je usklađeno'),
  'not reconciled': t('nije usaglašeno', 'nije usaglašeno', 'nije usklađeno'),
  // a bank line's "pay and match"
  'give exactly one of transactionId, invoiceId, expenseId and entry': t(
    'navedite tačno jedno od: transactionId, invoiceId, expenseId, entry',
    'navedite tačno jedno od: transactionId, invoiceId, expenseId, entry',
    'navedite točno jedno od: transactionId, invoiceId, expenseId, entry',
  ),
  "must differ from the bank account's ledger account": t(
    'mora se razlikovati od konta bankovnog računa',
    'mora se razlikovati od konta bankovnog računa',
  ),
  'an invoice is paid by money in; this bank line is money out': t(
    'faktura se plaća prilivom; ova stavka izvoda je odliv',
    'faktura se plaća prilivom; ova stavka izvoda je odliv',
    'račun se plaća primitkom; ova stavka izvoda je izdatak',
  ),
  'an expense is paid by money out; this bank line is money in': t(
    'trošak se plaća odlivom; ova stavka izvoda je priliv',
    'trošak se plaća odlivom; ova stavka izvoda je priliv',
    'trošak se plaća izdatkom; ova stavka izvoda je primitak',
  ),
  "the bank line's date is before the document's date": t(
    'datum stavke izvoda je pre datuma dokumenta',
    'datum stavke izvoda je prije datuma dokumenta',
    'datum stavke izvoda je prije datuma dokumenta',
  ),
  'the document has no amount to pay': t('dokument nema iznos za plaćanje', 'dokument nema iznos za plaćanje'),
  'must be an Asset account': t('mora biti konto imovine', 'mora biti konto imovine'),
  'must be a finite number': t('mora biti konačan broj', 'mora biti konačan broj'),
  // contacts, currencies, exchange rates
  'must be an ISO 3166-1 alpha-2 country code': t(
    'mora biti dvoslovna oznaka zemlje (ISO 3166-1 alpha-2)',
    'mora biti dvoslovna oznaka zemlje (ISO 3166-1 alpha-2)',
    'mora biti dvoslovna oznaka države (ISO 3166-1 alpha-2)',
  ),
  'must differ from baseCurrency': t('mora se razlikovati od baseCurrency', 'mora se razlikovati od baseCurrency'),
  'must be greater than 0.0000000001': t('mora biti veće od 0.0000000001', 'mora biti veće od 0.0000000001'),
  // e-invoices and payment codes
  'must be a code of the KPD 2025 list (HR-BR-CL-2), e.g. 62.10.11': t(
    'mora biti šifra sa liste KPD 2025 (HR-BR-CL-2), npr. 62.10.11',
    'mora biti šifra s liste KPD 2025 (HR-BR-CL-2), npr. 62.10.11',
    'mora biti šifra s popisa KPD 2025 (HR-BR-CL-2), npr. 62.10.11',
  ),
  'must be a Serbian exemption code of SEF (PDV-RS-...)': t(
    'mora biti šifra osnova oslobođenja iz SEF-a (PDV-RS-...)',
    'mora biti srpska šifra osnova oslobađanja iz SEF-a (PDV-RS-...)',
    'mora biti srpska šifra osnove oslobođenja iz SEF-a (PDV-RS-...)',
  ),
  'must be a code of the CEF VATEX list (BR-CL-22), e.g. VATEX-EU-132': t(
    'mora biti šifra sa liste CEF VATEX (BR-CL-22), npr. VATEX-EU-132',
    'mora biti šifra s liste CEF VATEX (BR-CL-22), npr. VATEX-EU-132',
    'mora biti šifra s popisa CEF VATEX (BR-CL-22), npr. VATEX-EU-132',
  ),
  // e-invoice data (einvoice-document.ts)
  'must be a date (YYYY-MM-DD)': t('mora biti datum (YYYY-MM-DD)', 'mora biti datum (YYYY-MM-DD)'),
  'no amount: both money out and money in are empty or zero': t(
    'nema iznosa: i isplata i uplata su prazne ili nula',
    'nema iznosa: i isplata i uplata su prazne ili nula',
  ),
  'both money out and money in carry an amount': t('i isplata i uplata imaju iznos', 'i isplata i uplata imaju iznos'),
  'must be a valid PIB': t('mora biti ispravan PIB', 'mora biti ispravan PIB'),
  'must be a valid OIB': t('mora biti ispravan OIB', 'mora biti ispravan OIB'),
  'is no longer available': t('više nije dostupno', 'više nije dostupno'),
  'must be RS: SEF carries domestic invoices only': t(
    'mora biti RS: SEF prima samo domaće fakture',
    'mora biti RS: SEF prima samo domaće fakture',
    'mora biti RS: SEF prima samo domaće račune',
  ),
  'must have 8 or 13 digits (matični broj)': t(
    'mora imati 8 ili 13 cifara (matični broj)',
    'mora imati 8 ili 13 cifara (matični broj)',
    'mora imati 8 ili 13 znamenki (matični broj)',
  ),
  'must be a KPD 2025 code (nn.nn.nn)': t('mora biti šifra KPD 2025 (nn.nn.nn)', 'mora biti šifra KPD 2025 (nn.nn.nn)'),
  'must be 25, 13 or 5 (or 0 with an exemption code) for a Croatian e-invoice': t(
    'mora biti 25, 13 ili 5 (ili 0 uz šifru oslobođenja) za hrvatsku e-fakturu',
    'mora biti 25, 13 ili 5 (ili 0 uz šifru oslobađanja) za hrvatsku e-fakturu',
    'mora biti 25, 13 ili 5 (ili 0 uz šifru oslobođenja) za e-račun',
  ),
  'an outside-VAT (O) line cannot share an e-invoice with other VAT categories (BR-O-11): invoice it separately': t(
    'stavka van sistema PDV-a (O) ne može biti na e-fakturi sa drugim kategorijama PDV-a (BR-O-11): fakturišite je posebno',
    'stavka izvan sistema PDV-a (O) ne može biti na e-fakturi s drugim kategorijama PDV-a (BR-O-11): fakturišite je posebno',
    'stavka izvan sustava PDV-a (O) ne može biti na e-računu s drugim kategorijama PDV-a (BR-O-11): ispostavite je zasebno',
  ),
  'is required when taxRate is 0': t('je obavezno kada je taxRate 0', 'je obavezno kada je taxRate 0'),
  'must be a Serbian PDV-RS-... exemption code': t(
    'mora biti srpska šifra oslobođenja PDV-RS-...',
    'mora biti srpska šifra oslobađanja PDV-RS-...',
    'mora biti srpska šifra oslobođenja PDV-RS-...',
  ),
  'must be an EN 16931 VATEX code (e.g. VATEX-EU-132)': t(
    'mora biti EN 16931 VATEX šifra (npr. VATEX-EU-132)',
    'mora biti EN 16931 VATEX šifra (npr. VATEX-EU-132)',
  ),
  // invoices, expenses, passwords
  'is only allowed with taxRate 0': t(
    'dozvoljeno je samo uz taxRate 0',
    'dozvoljeno je samo uz taxRate 0',
    'dopušteno je samo uz taxRate 0',
  ),
  'must be a decimal greater than 0': t('mora biti decimalni broj veći od 0', 'mora biti decimalni broj veći od 0'),
  'must be a decimal of at least 0': t('mora biti decimalni broj, najmanje 0', 'mora biti decimalni broj, najmanje 0'),
  'must be at least 0': t('mora biti najmanje 0', 'mora biti najmanje 0'),
  'must be greater than 0': t('mora biti veće od 0', 'mora biti veće od 0'),
  'must contain at least one item': t('mora imati bar jednu stavku', 'mora imati barem jednu stavku'),
  'must not be after dueDate': t('ne sme biti posle dueDate', 'ne smije biti nakon dueDate'),
  'must be at least 8 characters': t('mora imati najmanje 8 znakova', 'mora imati najmanje 8 znakova'),
  'must contain an upper-case letter': t('mora sadržati veliko slovo', 'mora sadržavati veliko slovo'),
  'must contain a lower-case letter': t('mora sadržati malo slovo', 'mora sadržavati malo slovo'),
  'must contain a digit': t('mora sadržati cifru', 'mora sadržavati cifru', 'mora sadržavati znamenku'),
  'draft: the e-invoice exists once the invoice is sent': t(
    'draft: e-faktura postoji kada je faktura poslata',
    'draft: e-faktura postoji kada je faktura poslana',
    'draft: e-račun postoji kada je račun poslan',
  ),
  'must be a valid IBAN': t('mora biti ispravan IBAN', 'mora biti ispravan IBAN'),
  'is required for the IPS QR code (a Serbian account)': t(
    'je obavezno za IPS QR kod (račun u Srbiji)',
    'je obavezno za IPS QR kod (račun u Srbiji)',
  ),
  'IPS QR payments are in RSD only': t('IPS QR plaćanja su samo u RSD', 'IPS QR plaćanja su samo u RSD'),
  'is required for the HUB-3A barcode (a Croatian IBAN)': t(
    'je obavezno za HUB-3A barkod (hrvatski IBAN)',
    'je obavezno za HUB-3A barkod (hrvatski IBAN)',
    'je obavezno za HUB-3A barkod (hrvatski IBAN)',
  ),
  'HUB-3A payments are in EUR only': t('HUB-3A plaćanja su samo u EUR', 'HUB-3A plaćanja su samo u EUR'),
  'payment codes exist for RS (IPS QR) and HR (HUB-3A) only': t(
    'kodovi za plaćanje postoje samo za RS (IPS QR) i HR (HUB-3A)',
    'kodovi za plaćanje postoje samo za RS (IPS QR) i HR (HUB-3A)',
  ),
  // expenses and invoices
  'must not be before expenseDate': t('ne sme biti pre expenseDate', 'ne smije biti prije expenseDate'),
  'the expense has no receipt': t('trošak nema račun', 'trošak nema račun', 'trošak nema priloženi račun'),
  'is not an active vendor': t('nije aktivan dobavljač', 'nije aktivan dobavljač'),
  'must be an active Expense account': t('mora biti aktivan konto rashoda', 'mora biti aktivan konto rashoda'),
  'must not exceed amount (amount is gross)': t(
    'ne sme biti veće od amount (amount je bruto iznos)',
    'ne smije biti veće od amount (amount je bruto iznos)',
  ),
  'send: a send of this invoice is already in progress': t(
    'send: slanje ove fakture je već u toku',
    'send: slanje ove fakture je već u toku',
    'send: slanje ovog računa je već u tijeku',
  ),
  'the customer has no e-mail address and no "to" was given': t(
    'kupac nema e-mail adresu, a "to" nije navedeno',
    'kupac nema e-mail adresu, a "to" nije navedeno',
  ),
  'must be an ISO date (YYYY-MM-DD) or date-time': t(
    'mora biti ISO datum (YYYY-MM-DD) ili datum i vreme',
    'mora biti ISO datum (YYYY-MM-DD) ili datum i vrijeme',
  ),
  'must not be before invoiceDate': t('ne sme biti pre invoiceDate', 'ne smije biti prije invoiceDate'),
  'is not an active customer': t('nije aktivan kupac', 'nije aktivan kupac'),
  'must not exceed subtotal + taxAmount': t(
    'ne sme biti veće od subtotal + taxAmount',
    'ne smije biti veće od subtotal + taxAmount',
  ),
  'must be an active Revenue account': t('mora biti aktivan konto prihoda', 'mora biti aktivan konto prihoda'),
  // receipts, reports, tax rates
  'must be a PDF, PNG or JPEG file (decided by its content)': t(
    'mora biti PDF, PNG ili JPEG datoteka (prema sadržaju)',
    'mora biti PDF, PNG ili JPEG datoteka (prema sadržaju)',
  ),
  'must not be after to': t('ne sme biti posle to', 'ne smije biti nakon to'),
  'must be between 0 and 100': t('mora biti između 0 i 100', 'mora biti između 0 i 100'),
  'must have at most 4 decimals': t('sme imati najviše 4 decimale', 'smije imati najviše 4 decimale'),
  'is used by another rate': t('koristi ga druga stopa', 'koristi ga druga stopa'),
  // malformed bodies (the body parsers' own words)
  'the content type has no boundary parameter': t(
    'tip sadržaja nema parametar boundary',
    'tip sadržaja nema parametar boundary',
    'vrsta sadržaja nema parametar boundary',
  ),
  'a part has no Content-Disposition form-data header': t(
    'jedan deo nema zaglavlje Content-Disposition form-data',
    'jedan dio nema zaglavlje Content-Disposition form-data',
  ),
  'Unexpected end of form': t('neočekivan kraj obrasca', 'neočekivan kraj obrasca'),
  'Malformed part header': t('neispravno zaglavlje dela', 'neispravno zaglavlje dijela'),
  'Unexpected end of file': t('neočekivan kraj datoteke', 'neočekivan kraj datoteke'),
  unreadable: t('nečitljivo', 'nečitljivo'),
  // the CSV statement importer (per row and whole file)
  'contains a NUL character': t('sadrži znak NUL', 'sadrži znak NUL'),
  'fewer than 3 columns (Date, Description, Amount, Reference)': t(
    'manje od 3 kolone (datum, opis, iznos, poziv na broj)',
    'manje od 3 kolone (datum, opis, iznos, poziv na broj)',
    'manje od 3 stupca (datum, opis, iznos, poziv na broj)',
  ),
  'the file has no data rows': t(
    'datoteka nema redova s podacima',
    'datoteka nema redova s podacima',
    'datoteka nema redaka s podacima',
  ),
  'a description (Description, Opis, Svrha ...)': t(
    'opis (Description, Opis, Svrha ...)',
    'opis (Description, Opis, Svrha ...)',
  ),
  'an amount (Amount, Iznos, or money out and in: Duguje and Potražuje, Isplata and Uplata)': t(
    'iznos (Amount, Iznos, ili isplata i uplata: Duguje i Potražuje, Isplata i Uplata)',
    'iznos (Amount, Iznos, ili isplata i uplata: Duguje i Potražuje, Isplata i Uplata)',
  ),
};

const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => Local]> = [
  // A statement's line number, then its reason (translated when it is one of the known ones).
  [
    /^line (\d+): (.+)$/,
    (m) =>
      t(
        `red ${m[1]}: ${localizeDetail(m[2], 'sr')}`,
        `red ${m[1]}: ${localizeDetail(m[2], 'bs')}`,
        `redak ${m[1]}: ${localizeDetail(m[2], 'hr')}`,
      ),
  ],
  [
    /^amount "(.*)" is not a non-zero decimal with at most (\d+) decimals$/s,
    (m) =>
      t(
        `iznos "${m[1]}" nije decimalni broj različit od nule sa najviše ${m[2]} decimala`,
        `iznos "${m[1]}" nije decimalni broj različit od nule s najviše ${m[2]} decimala`,
      ),
  ],
  [
    /^date "(.*)" is not a date \(YYYY-MM-DD or DD\.MM\.YYYY\)$/s,
    (m) =>
      t(
        `datum "${m[1]}" nije datum (GGGG-MM-DD ili DD.MM.GGGG)`,
        `datum "${m[1]}" nije datum (GGGG-MM-DD ili DD.MM.GGGG)`,
      ),
  ],
  [
    /^expected at least (\d+) columns, found (\d+)$/,
    (m) =>
      t(
        `broj kolona: očekivano najmanje ${m[1]}, pronađeno ${m[2]}`,
        `broj kolona: očekivano najmanje ${m[1]}, pronađeno ${m[2]}`,
        `broj stupaca: očekivano najmanje ${m[1]}, pronađeno ${m[2]}`,
      ),
  ],
  [
    /^expected 3 or 4 columns, found (\d+)$/,
    (m) =>
      t(
        `broj kolona: očekivano 3 ili 4, pronađeno ${m[1]}`,
        `broj kolona: očekivano 3 ili 4, pronađeno ${m[1]}`,
        `broj stupaca: očekivano 3 ili 4, pronađeno ${m[1]}`,
      ),
  ],
  [
    /^(description|reference) is longer than (\d+) characters$/,
    (m) =>
      m[1] === 'description'
        ? t(`opis je duži od ${m[2]} znakova`, `opis je duži od ${m[2]} znakova`)
        : t(`poziv na broj je duži od ${m[2]} znakova`, `poziv na broj je duži od ${m[2]} znakova`),
  ],
  [
    /^not a valid CSV file: (.+)$/s,
    // The reason is the CSV parser's own words.
    (m) => t(`nije ispravna CSV datoteka: ${m[1]}`, `nije ispravna CSV datoteka: ${m[1]}`),
  ],
  [/^expired on (\S+)$/, (m) => t(`istekao ${m[1]}`, `istekao ${m[1]}`)],
  [/^(\S+): already decided$/, (m) => t(`${m[1]}: već je odlučeno`, `${m[1]}: već je odlučeno`)],
  [
    /^(\w+): a payment is reported for a paid invoice$/,
    (m) =>
      t(
        `${m[1]}: naplata se prijavljuje za plaćenu fakturu`,
        `${m[1]}: naplata se prijavljuje za plaćenu fakturu`,
        `${m[1]}: naplata se prijavljuje za plaćeni račun`,
      ),
  ],
  [/^not sent: (.+)$/, (m) => t(`nije poslato: ${m[1]}`, `nije poslano: ${m[1]}`)],
  [
    /^unit (\S+) is not in SEF's list of units$/,
    (m) => t(`jedinica ${m[1]} nije na SEF-ovoj listi jedinica`, `jedinica ${m[1]} nije na SEF-ovoj listi jedinica`),
  ],
  [
    /^VAT exemption code (\S+) is not in SEF's list$/,
    (m) =>
      t(
        `šifra oslobođenja od PDV-a ${m[1]} nije na SEF-ovoj listi`,
        `šifra oslobođenja od PDV-a ${m[1]} nije na SEF-ovoj listi`,
      ),
  ],
  [
    /^must be one of: (.+)$/,
    (m) => ({
      sr: `mora biti jedno od: ${m[1]}`,
      bs: `mora biti jedno od: ${m[1]}`,
      hr: `mora biti jedno od: ${m[1]}`,
    }),
  ],
  [
    /^must not have more than (\d+) characters$/,
    (m) => ({
      sr: `sme imati najviše ${m[1]} znakova`,
      bs: `smije imati najviše ${m[1]} znakova`,
      hr: `smije imati najviše ${m[1]} znakova`,
    }),
  ],
  [
    /^must not have fewer than (\d+) characters$/,
    (m) => ({
      sr: `mora imati najmanje ${m[1]} znakova`,
      bs: `mora imati najmanje ${m[1]} znakova`,
      hr: `mora imati najmanje ${m[1]} znakova`,
    }),
  ],
  [
    /^must match format "(.+)"$/,
    (m) => ({
      sr: `mora biti u formatu ${m[1]}`,
      bs: `mora biti u formatu ${m[1]}`,
      hr: `mora biti u formatu ${m[1]}`,
    }),
  ],
  [
    /^must match pattern "(.+)"$/,
    (m) => ({
      sr: `mora odgovarati obrascu ${m[1]}`,
      bs: `mora odgovarati obrascu ${m[1]}`,
      hr: `mora odgovarati uzorku ${m[1]}`,
    }),
  ],
  [
    /^must be >= (.+)$/,
    (m) => ({ sr: `mora biti >= ${m[1]}`, bs: `mora biti >= ${m[1]}`, hr: `mora biti >= ${m[1]}` }),
  ],
  [
    /^must be <= (.+)$/,
    (m) => ({ sr: `mora biti <= ${m[1]}`, bs: `mora biti <= ${m[1]}`, hr: `mora biti <= ${m[1]}` }),
  ],
  [
    /^malformed multipart body: (.+)$/,
    // The reason is the parser's own (translated when it is one of the known ones).
    (m) => ({
      sr: `neispravno multipart telo: ${localizeDetail(m[1], 'sr')}`,
      bs: `neispravno multipart tijelo: ${localizeDetail(m[1], 'bs')}`,
      hr: `neispravno multipart tijelo: ${localizeDetail(m[1], 'hr')}`,
    }),
  ],
  [
    /^must be (>|<) (.+)$/,
    (m) => ({ sr: `mora biti ${m[1]} ${m[2]}`, bs: `mora biti ${m[1]} ${m[2]}`, hr: `mora biti ${m[1]} ${m[2]}` }),
  ],
  [/^must be either (\w+) or (\w+)$/, (m) => t(`mora biti ${m[1]} ili ${m[2]}`, `mora biti ${m[1]} ili ${m[2]}`)],
  [/^must be multiple of (.+)$/, (m) => t(`mora biti deljivo sa ${m[1]}`, `mora biti djeljivo s ${m[1]}`)],
  [
    /^must not have more than (\d+) items$/,
    (m) => t(`sme imati najviše ${m[1]} stavki`, `smije imati najviše ${m[1]} stavki`),
  ],
  [
    /^must not have fewer than (\d+) items$/,
    (m) => t(`mora imati najmanje ${m[1]} stavki`, `mora imati najmanje ${m[1]} stavki`),
  ],
  [/^must be one of (.+)$/, (m) => t(`mora biti jedno od: ${m[1]}`, `mora biti jedno od: ${m[1]}`)],
  [
    /^unexpected file; send it as (.+)$/,
    (m) => t(`neočekivana datoteka; pošaljite je kao ${m[1]}`, `neočekivana datoteka; pošaljite je kao ${m[1]}`),
  ],
  [
    /^the document is not in the bank account's currency (.+)$/,
    (m) => same(`dokument nije u valuti bankovnog računa ${m[1]}`),
  ],
  [
    /^the posting does not touch the bank account's ledger account (.+)$/,
    (m) =>
      t(
        `knjiženje ne obuhvata konto bankovnog računa ${m[1]}`,
        `knjiženje ne obuhvata konto bankovnog računa ${m[1]}`,
        `knjiženje ne obuhvaća konto bankovnog računa ${m[1]}`,
      ),
  ],
  [
    /^must be below (.+) in absolute value$/,
    (m) =>
      t(`mora po apsolutnoj vrednosti biti manje od ${m[1]}`, `mora po apsolutnoj vrijednosti biti manje od ${m[1]}`),
  ],
  [
    /^(is required|the issuing user is required) for (a SEF e-invoice \(srbdt\)|a CIUS-HR e-invoice|an EN 16931 e-invoice)(: set it with PUT \/auth\/me)?$/,
    (m) => {
      const what = {
        'a SEF e-invoice (srbdt)': t('za SEF e-fakturu (srbdt)', 'za SEF e-fakturu (srbdt)'),
        'a CIUS-HR e-invoice': t('za CIUS-HR e-fakturu', 'za CIUS-HR e-fakturu', 'za CIUS-HR e-račun'),
        'an EN 16931 e-invoice': t('za EN 16931 e-fakturu', 'za EN 16931 e-fakturu', 'za EN 16931 e-račun'),
      }[m[2]] as Local;
      const head =
        m[1] === 'is required' ? t('je obavezno', 'je obavezno') : t('izdavalac je obavezan', 'izdavatelj je obavezan');
      const tail = m[3] ? t(': postavite ga preko PUT /auth/me', ': postavite ga preko PUT /auth/me') : same('');
      return t(`${head.sr} ${what.sr}${tail.sr}`, `${head.bs} ${what.bs}${tail.bs}`, `${head.hr} ${what.hr}${tail.hr}`);
    },
  ],
  [
    /^the header row names no column for (.+)$/,
    (m) => {
      // The missing columns: "a description (...)", "an amount (...)", or both joined by " and ".
      const parts = (lang: 'sr' | 'bs' | 'hr') =>
        m[1]
          .split(/ and (?=an? )/)
          .map((part) => localizeDetail(part, lang))
          .join(' i ');
      return t(
        `zaglavlje ne imenuje kolonu za ${parts('sr')}`,
        `zaglavlje ne imenuje kolonu za ${parts('bs')}`,
        `zaglavlje ne imenuje stupac za ${parts('hr')}`,
      );
    },
  ],
  [/^must be at most (\S+)$/, (m) => t(`sme biti najviše ${m[1]}`, `smije biti najviše ${m[1]}`)],
  [/^must be below (.+)$/, (m) => t(`mora biti manje od ${m[1]}`, `mora biti manje od ${m[1]}`)],
  [
    /^must have at most (\d+) decimal places$/,
    (m) => t(`sme imati najviše ${m[1]} decimala`, `smije imati najviše ${m[1]} decimala`),
  ],
  [
    /^must have at most (\d+) decimals in (\w+)$/,
    (m) => t(`sme imati najviše ${m[1]} decimala u ${m[2]}`, `smije imati najviše ${m[1]} decimala u ${m[2]}`),
  ],
  [
    /^debits \((\S+)\) and credits \((\S+)\) must be equal and above zero$/,
    (m) =>
      t(
        `duguje (${m[1]}) i potražuje (${m[2]}) moraju biti jednaki i veći od nule`,
        `duguje (${m[1]}) i potražuje (${m[2]}) moraju biti jednaki i veći od nule`,
      ),
  ],
  [
    /^no exchange rate from (\w+) to (\w+) on or before (\S+)$/,
    (m) =>
      t(
        `nema kursa ${m[1]} u ${m[2]} na dan ${m[3]} ili ranije`,
        `nema kursa ${m[1]} u ${m[2]} na dan ${m[3]} ili ranije`,
        `nema tečaja ${m[1]} u ${m[2]} na dan ${m[3]} ili ranije`,
      ),
  ],
  [
    /^the (\w+) to (\w+) rate is below 0\.000001$/,
    (m) =>
      t(
        `kurs ${m[1]} u ${m[2]} je manji od 0.000001`,
        `kurs ${m[1]} u ${m[2]} je manji od 0.000001`,
        `tečaj ${m[1]} u ${m[2]} je manji od 0.000001`,
      ),
  ],
  [
    /^(\w+): a credit note exists for an invoice cancelled after it was sent$/,
    (m) =>
      t(
        `${m[1]}: knjižno odobrenje postoji za fakturu otkazanu nakon slanja`,
        `${m[1]}: knjižno odobrenje postoji za fakturu otkazanu nakon slanja`,
        `${m[1]}: odobrenje postoji za račun storniran nakon slanja`,
      ),
  ],
  [
    /^'(.*)' is not allowed when the (invoice|expense) is (\w+)$/,
    (m) =>
      m[2] === 'invoice'
        ? t(
            `'${m[1]}' nije dozvoljeno kada je faktura ${m[3]}`,
            `'${m[1]}' nije dozvoljeno kada je faktura ${m[3]}`,
            `'${m[1]}' nije dopušteno kada je račun ${m[3]}`,
          )
        : t(
            `'${m[1]}' nije dozvoljeno kada je trošak ${m[3]}`,
            `'${m[1]}' nije dozvoljeno kada je trošak ${m[3]}`,
            `'${m[1]}' nije dopušteno kada je trošak ${m[3]}`,
          ),
  ],
  [
    /^must stay in (\d{4}), the year of (.+)$/,
    (m) =>
      t(`mora ostati u ${m[1]}. godini, godini broja ${m[2]}`, `mora ostati u ${m[1]}. godini, godini broja ${m[2]}`),
  ],
  [
    /^must be 0 or one of the organization's tax rates \(GET \/settings\/tax-rates\): (.+)$/,
    (m) =>
      t(
        `mora biti 0 ili jedna od poreskih stopa organizacije (GET /settings/tax-rates): ${m[1]}`,
        `mora biti 0 ili jedna od poreznih stopa organizacije (GET /settings/tax-rates): ${m[1]}`,
      ),
  ],
  [
    /^the buyer's OIB (\d{11}) is not registered to receive e-invoices \(AMS\); not sent$/,
    (m) =>
      t(
        `OIB kupca ${m[1]} nije registrovan za prijem e-faktura (AMS); nije poslato`,
        `OIB kupca ${m[1]} nije registriran za prijem e-faktura (AMS); nije poslano`,
        `OIB kupca ${m[1]} nije registriran za primanje e-računa (AMS); nije poslano`,
      ),
  ],
  [
    /^malware detected: (.+)$/,
    (m) => t(`otkriven zlonamerni softver: ${m[1]}`, `otkriven zlonamjerni softver: ${m[1]}`),
  ],
];

export function localizeDetail(message: string, lang: Language): string {
  if (lang === 'en') return message;
  const exact = EXACT[message];
  if (exact) return exact[lang];
  for (const [re, local] of PATTERNS) {
    const m = re.exec(message);
    if (m) return local(m)[lang];
  }
  return message;
}

/** The details with every message in the request's language, field keys unchanged. */
export function localizeDetails(details: Record<string, string[]>, lang: Language): Record<string, string[]> {
  if (lang === 'en') return details;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(details)) {
    out[field] = Array.isArray(messages) ? messages.map((m) => localizeDetail(m, lang)) : messages;
  }
  return out;
}
