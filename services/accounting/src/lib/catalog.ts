/**
 * The error catalog of the specification: code -> HTTP status (A1, A2: the catalog's status wins)
 * and a message in every supported language (A18). sr, bs and hr are written in Latin script.
 */
export const LANGUAGES = ['en', 'sr', 'bs', 'hr'] as const;
export type Language = (typeof LANGUAGES)[number];

type Entry = { status: number; en: string; sr: string; bs: string; hr: string };

export const CATALOG = {
  'SVC-1001': {
    status: 401,
    en: 'Invalid e-mail or password.',
    sr: 'Pogrešna e-adresa ili lozinka.',
    bs: 'Pogrešna e-mail adresa ili lozinka.',
    hr: 'Pogrešna e-adresa ili lozinka.',
  },
  'SVC-1002': {
    status: 403,
    en: 'This user account is disabled.',
    sr: 'Ovaj korisnički nalog je onemogućen.',
    bs: 'Ovaj korisnički račun je onemogućen.',
    hr: 'Ovaj korisnički račun je onemogućen.',
  },
  'SVC-1003': {
    status: 401,
    en: 'The access token has expired.',
    sr: 'Pristupni token je istekao.',
    bs: 'Pristupni token je istekao.',
    hr: 'Pristupni token je istekao.',
  },
  'SVC-1004': {
    status: 401,
    en: 'The access token is invalid.',
    sr: 'Pristupni token nije ispravan.',
    bs: 'Pristupni token nije ispravan.',
    hr: 'Pristupni token nije ispravan.',
  },
  'SVC-1005': {
    status: 401,
    en: 'Authentication is required.',
    sr: 'Potrebna je prijava.',
    bs: 'Potrebna je prijava.',
    hr: 'Potrebna je prijava.',
  },
  'SVC-1006': {
    status: 401,
    en: 'The refresh token is missing, revoked or expired.',
    sr: 'Token za osvežavanje nedostaje, opozvan je ili je istekao.',
    bs: 'Token za osvježavanje nedostaje, opozvan je ili je istekao.',
    hr: 'Token za osvježavanje nedostaje, opozvan je ili je istekao.',
  },
  'SVC-1007': {
    status: 429,
    en: 'Too many sign-in attempts. Try again later.',
    sr: 'Previše pokušaja prijave. Pokušajte kasnije.',
    bs: 'Previše pokušaja prijave. Pokušajte kasnije.',
    hr: 'Previše pokušaja prijave. Pokušajte kasnije.',
  },
  'SVC-1008': {
    status: 409,
    en: 'An account with this e-mail address already exists.',
    sr: 'Nalog sa ovom e-adresom već postoji.',
    bs: 'Račun s ovom e-mail adresom već postoji.',
    hr: 'Račun s ovom e-adresom već postoji.',
  },
  'SVC-1009': {
    status: 422,
    en: 'The password is too weak.',
    sr: 'Lozinka je preslaba.',
    bs: 'Lozinka je preslaba.',
    hr: 'Lozinka je preslaba.',
  },
  'SVC-1010': {
    status: 403,
    en: 'A two-factor authentication code is required.',
    sr: 'Potreban je kod dvofaktorske autentifikacije.',
    bs: 'Potreban je kod dvofaktorske autentifikacije.',
    hr: 'Potreban je kôd dvofaktorske autentifikacije.',
  },
  'SVC-1011': {
    status: 401,
    en: 'The two-factor code is wrong or expired.',
    sr: 'Kod dvofaktorske autentifikacije je pogrešan ili je istekao.',
    bs: 'Kod dvofaktorske autentifikacije je pogrešan ili je istekao.',
    hr: 'Kôd dvofaktorske autentifikacije je pogrešan ili je istekao.',
  },
  'SVC-1012': {
    status: 401,
    en: 'The invitation link has expired or was already used.',
    sr: 'Pozivni link je istekao ili je već iskorišćen.',
    bs: 'Pozivni link je istekao ili je već iskorišten.',
    hr: 'Poveznica pozivnice je istekla ili je već iskorištena.',
  },
  'SVC-2001': {
    status: 404,
    en: 'The organization no longer exists.',
    sr: 'Organizacija više ne postoji.',
    bs: 'Organizacija više ne postoji.',
    hr: 'Organizacija više ne postoji.',
  },
  'SVC-2002': {
    status: 422,
    en: 'Base currency must be one of EUR, RSD, BAM, HRK.',
    sr: 'Osnovna valuta mora biti EUR, RSD, BAM ili HRK.',
    bs: 'Osnovna valuta mora biti EUR, RSD, BAM ili HRK.',
    hr: 'Osnovna valuta mora biti EUR, RSD, BAM ili HRK.',
  },
  'SVC-2003': {
    status: 422,
    en: 'Language must be one of sr, bs, hr.',
    sr: 'Jezik mora biti sr, bs ili hr.',
    bs: 'Jezik mora biti sr, bs ili hr.',
    hr: 'Jezik mora biti sr, bs ili hr.',
  },
  'SVC-2004': {
    status: 400,
    en: 'The base currency cannot change once ledger transactions exist.',
    sr: 'Osnovna valuta ne može da se promeni kada postoje knjiženja.',
    bs: 'Osnovna valuta se ne može promijeniti kada postoje knjiženja.',
    hr: 'Osnovna valuta ne može se promijeniti kada postoje knjiženja.',
  },
  'SVC-2005': {
    status: 404,
    en: 'User not found.',
    sr: 'Korisnik nije pronađen.',
    bs: 'Korisnik nije pronađen.',
    hr: 'Korisnik nije pronađen.',
  },
  'SVC-2006': {
    status: 403,
    en: 'The owner cannot be changed or removed.',
    sr: 'Vlasnik ne može biti izmenjen niti uklonjen.',
    bs: 'Vlasnik se ne može izmijeniti niti ukloniti.',
    hr: 'Vlasnik se ne može promijeniti niti ukloniti.',
  },
  'SVC-2007': {
    status: 403,
    en: 'You cannot delete your own account.',
    sr: 'Ne možete obrisati sopstveni nalog.',
    bs: 'Ne možete izbrisati vlastiti račun.',
    hr: 'Ne možete izbrisati vlastiti račun.',
  },
  'SVC-2008': {
    status: 409,
    en: 'This e-mail address is already registered.',
    sr: 'Ova e-adresa je već registrovana.',
    bs: 'Ova e-mail adresa je već registrovana.',
    hr: 'Ova e-adresa je već registrirana.',
  },
  'SVC-3001': {
    status: 404,
    en: 'Invoice not found.',
    sr: 'Faktura nije pronađena.',
    bs: 'Faktura nije pronađena.',
    hr: 'Račun nije pronađen.',
  },
  'SVC-3002': {
    status: 404,
    en: 'Customer not found.',
    sr: 'Kupac nije pronađen.',
    bs: 'Kupac nije pronađen.',
    hr: 'Kupac nije pronađen.',
  },
  'SVC-3003': {
    status: 400,
    en: 'Only draft invoices can be edited.',
    sr: 'Mogu se menjati samo fakture u nacrtu.',
    bs: 'Mogu se mijenjati samo fakture u nacrtu.',
    hr: 'Mogu se mijenjati samo računi u nacrtu.',
  },
  'SVC-3004': {
    status: 400,
    en: "This action is not allowed in the invoice's current status.",
    sr: 'Ova radnja nije dozvoljena u trenutnom statusu fakture.',
    bs: 'Ova radnja nije dozvoljena u trenutnom statusu fakture.',
    hr: 'Ova radnja nije dopuštena u trenutnom statusu računa.',
  },
  'SVC-3005': {
    status: 400,
    en: 'The customer has no e-mail address.',
    sr: 'Kupac nema e-adresu.',
    bs: 'Kupac nema e-mail adresu.',
    hr: 'Kupac nema e-adresu.',
  },
  'SVC-3006': {
    status: 422,
    en: 'An invoice needs at least one item.',
    sr: 'Faktura mora imati bar jednu stavku.',
    bs: 'Faktura mora imati barem jednu stavku.',
    hr: 'Račun mora imati barem jednu stavku.',
  },
  'SVC-3007': {
    status: 422,
    en: 'Quantity and unit price must be greater than zero.',
    sr: 'Količina i jedinična cena moraju biti veće od nule.',
    bs: 'Količina i jedinična cijena moraju biti veće od nule.',
    hr: 'Količina i jedinična cijena moraju biti veće od nule.',
  },
  'SVC-3008': {
    status: 422,
    en: "Tax rate must be 0 or one of the organization's tax rates (between 0 and 100).",
    sr: 'Poreska stopa mora biti 0 ili jedna od poreskih stopa organizacije (između 0 i 100).',
    bs: 'Porezna stopa mora biti 0 ili jedna od poreznih stopa organizacije (između 0 i 100).',
    hr: 'Porezna stopa mora biti 0 ili jedna od poreznih stopa organizacije (između 0 i 100).',
  },
  'SVC-3009': {
    status: 422,
    en: 'The due date cannot be before the invoice date.',
    sr: 'Datum dospeća ne može biti pre datuma fakture.',
    bs: 'Datum dospijeća ne može biti prije datuma fakture.',
    hr: 'Datum dospijeća ne može biti prije datuma računa.',
  },
  'SVC-3010': {
    status: 404,
    en: 'The PDF has not been generated yet.',
    sr: 'PDF još nije generisan.',
    bs: 'PDF još nije generisan.',
    hr: 'PDF još nije generiran.',
  },
  'SVC-3011': {
    status: 500,
    en: 'The e-mail could not be delivered.',
    sr: 'E-poruka nije mogla biti isporučena.',
    bs: 'E-mail nije mogao biti isporučen.',
    hr: 'E-poruka nije mogla biti isporučena.',
  },
  'SVC-4001': {
    status: 404,
    en: 'Expense not found.',
    sr: 'Trošak nije pronađen.',
    bs: 'Trošak nije pronađen.',
    hr: 'Trošak nije pronađen.',
  },
  'SVC-4002': {
    status: 400,
    en: 'Only pending expenses can be changed or deleted.',
    sr: 'Mogu se menjati ili brisati samo troškovi na čekanju.',
    bs: 'Mogu se mijenjati ili brisati samo troškovi na čekanju.',
    hr: 'Mogu se mijenjati ili brisati samo troškovi na čekanju.',
  },
  'SVC-4003': {
    status: 400,
    en: "This action is not allowed in the expense's current status.",
    sr: 'Ova radnja nije dozvoljena u trenutnom statusu troška.',
    bs: 'Ova radnja nije dozvoljena u trenutnom statusu troška.',
    hr: 'Ova radnja nije dopuštena u trenutnom statusu troška.',
  },
  'SVC-4004': {
    status: 404,
    en: 'Vendor not found.',
    sr: 'Dobavljač nije pronađen.',
    bs: 'Dobavljač nije pronađen.',
    hr: 'Dobavljač nije pronađen.',
  },
  'SVC-4005': {
    status: 413,
    en: 'The receipt is larger than 10 MB.',
    sr: 'Račun je veći od 10 MB.',
    bs: 'Priznanica je veća od 10 MB.',
    hr: 'Potvrda je veća od 10 MB.',
  },
  'SVC-4006': {
    status: 422,
    en: 'The receipt must be a PDF, PNG or JPG file.',
    sr: 'Račun mora biti PDF, PNG ili JPG datoteka.',
    bs: 'Priznanica mora biti PDF, PNG ili JPG datoteka.',
    hr: 'Potvrda mora biti PDF, PNG ili JPG datoteka.',
  },
  'SVC-4007': {
    status: 500,
    en: 'The file could not be stored.',
    sr: 'Datoteka nije mogla biti sačuvana.',
    bs: 'Datoteka nije mogla biti pohranjena.',
    hr: 'Datoteka nije mogla biti pohranjena.',
  },
  'SVC-4008': {
    status: 422,
    en: 'The virus scan found malware in the file.',
    sr: 'Antivirusna provera je pronašla zlonamerni softver u datoteci.',
    bs: 'Antivirusna provjera je pronašla zlonamjerni softver u datoteci.',
    hr: 'Antivirusna provjera pronašla je zlonamjerni softver u datoteci.',
  },
  'SVC-5001': {
    status: 404,
    en: 'Bank account not found.',
    sr: 'Bankovni račun nije pronađen.',
    bs: 'Bankovni račun nije pronađen.',
    hr: 'Bankovni račun nije pronađen.',
  },
  'SVC-5002': {
    status: 422,
    en: 'The ledger account must be an asset account.',
    sr: 'Konto mora biti konto imovine.',
    bs: 'Konto mora biti konto imovine.',
    hr: 'Konto mora biti konto imovine.',
  },
  'SVC-5003': {
    status: 404,
    en: 'Ledger account not found.',
    sr: 'Konto nije pronađen.',
    bs: 'Konto nije pronađen.',
    hr: 'Konto nije pronađen.',
  },
  'SVC-5004': {
    status: 404,
    en: 'Bank transaction not found.',
    sr: 'Bankovna transakcija nije pronađena.',
    bs: 'Bankovna transakcija nije pronađena.',
    hr: 'Bankovna transakcija nije pronađena.',
  },
  'SVC-5005': {
    status: 400,
    en: 'The transaction is already reconciled.',
    sr: 'Transakcija je već usaglašena.',
    bs: 'Transakcija je već usaglašena.',
    hr: 'Transakcija je već usklađena.',
  },
  'SVC-5006': {
    status: 422,
    en: 'The CSV file is malformed or misses required columns.',
    sr: 'CSV datoteka nije ispravna ili nedostaju obavezne kolone.',
    bs: 'CSV datoteka nije ispravna ili nedostaju obavezne kolone.',
    hr: 'CSV datoteka nije ispravna ili nedostaju obavezni stupci.',
  },
  'SVC-5007': {
    status: 413,
    en: 'The CSV file is larger than 5 MB.',
    sr: 'CSV datoteka je veća od 5 MB.',
    bs: 'CSV datoteka je veća od 5 MB.',
    hr: 'CSV datoteka veća je od 5 MB.',
  },
  'SVC-5008': {
    status: 422,
    en: 'CSV dates must be ISO 8601 (YYYY-MM-DD).',
    sr: 'Datumi u CSV datoteci moraju biti u formatu ISO 8601 (GGGG-MM-DD).',
    bs: 'Datumi u CSV datoteci moraju biti u formatu ISO 8601 (GGGG-MM-DD).',
    hr: 'Datumi u CSV datoteci moraju biti u formatu ISO 8601 (GGGG-MM-DD).',
  },
  'SVC-6001': {
    status: 422,
    en: 'The start date (from) is required.',
    sr: 'Početni datum (from) je obavezan.',
    bs: 'Početni datum (from) je obavezan.',
    hr: 'Početni datum (from) je obavezan.',
  },
  'SVC-6002': {
    status: 422,
    en: 'The end date (to) is required.',
    sr: 'Završni datum (to) je obavezan.',
    bs: 'Završni datum (to) je obavezan.',
    hr: 'Završni datum (to) je obavezan.',
  },
  'SVC-6003': {
    status: 422,
    en: 'The start date must not be after the end date.',
    sr: 'Početni datum ne sme biti posle završnog.',
    bs: 'Početni datum ne smije biti poslije završnog.',
    hr: 'Početni datum ne smije biti nakon završnog.',
  },
  'SVC-6004': {
    status: 500,
    en: 'Debit and credit totals of the trial balance differ.',
    sr: 'Ukupna duguje i potražuje u bruto bilansu se razlikuju.',
    bs: 'Ukupni duguje i potražuje u bruto bilansu se razlikuju.',
    hr: 'Ukupni duguje i potražuje u bruto bilanci se razlikuju.',
  },
  'SVC-7001': {
    status: 404,
    en: 'Contact not found.',
    sr: 'Kontakt nije pronađen.',
    bs: 'Kontakt nije pronađen.',
    hr: 'Kontakt nije pronađen.',
  },
  'SVC-7002': {
    status: 400,
    en: 'The contact has invoices that are not cancelled.',
    sr: 'Kontakt ima fakture koje nisu stornirane.',
    bs: 'Kontakt ima fakture koje nisu stornirane.',
    hr: 'Kontakt ima račune koji nisu stornirani.',
  },
  'SVC-7003': {
    status: 400,
    en: 'The contact has expenses that are not rejected.',
    sr: 'Kontakt ima troškove koji nisu odbijeni.',
    bs: 'Kontakt ima troškove koji nisu odbijeni.',
    hr: 'Kontakt ima troškove koji nisu odbijeni.',
  },
  'SVC-7004': {
    status: 422,
    en: 'Country must be an ISO 3166-1 alpha-2 code.',
    sr: 'Država mora biti ISO 3166-1 alfa-2 kod.',
    bs: 'Država mora biti ISO 3166-1 alfa-2 kod.',
    hr: 'Država mora biti ISO 3166-1 alfa-2 kôd.',
  },
  'SVC-7005': {
    status: 422,
    en: 'Payment terms must be a positive whole number of days.',
    sr: 'Rok plaćanja mora biti pozitivan ceo broj dana.',
    bs: 'Rok plaćanja mora biti pozitivan cijeli broj dana.',
    hr: 'Rok plaćanja mora biti pozitivan cijeli broj dana.',
  },
  'SVC-8001': {
    status: 404,
    en: 'Account not found.',
    sr: 'Konto nije pronađen.',
    bs: 'Konto nije pronađen.',
    hr: 'Konto nije pronađen.',
  },
  'SVC-8002': {
    status: 409,
    en: 'An account with this code already exists.',
    sr: 'Konto sa ovom šifrom već postoji.',
    bs: 'Konto s ovom šifrom već postoji.',
    hr: 'Konto s ovom šifrom već postoji.',
  },
  'SVC-8003': {
    status: 422,
    en: 'Account type must be between 1 and 5.',
    sr: 'Tip konta mora biti između 1 i 5.',
    bs: 'Tip konta mora biti između 1 i 5.',
    hr: 'Vrsta konta mora biti između 1 i 5.',
  },
  'SVC-8004': {
    status: 400,
    // Also a refused deletion (DELETE /accounts/:id): the details say what keeps the account.
    en: 'An account in use cannot be deactivated or deleted.',
    sr: 'Konto koji se koristi ne može biti deaktiviran ni obrisan.',
    bs: 'Konto koji se koristi ne može se deaktivirati ni obrisati.',
    hr: 'Konto koji se koristi ne može se deaktivirati ni obrisati.',
  },
  'SVC-8005': {
    status: 404,
    en: 'Parent account not found.',
    sr: 'Nadređeni konto nije pronađen.',
    bs: 'Nadređeni konto nije pronađen.',
    hr: 'Nadređeni konto nije pronađen.',
  },
  'SVC-8006': {
    status: 422,
    en: 'VAT rates must be between 0 and 100.',
    sr: 'Stope PDV-a moraju biti između 0 i 100.',
    bs: 'Stope PDV-a moraju biti između 0 i 100.',
    hr: 'Stope PDV-a moraju biti između 0 i 100.',
  },
  'SVC-9001': {
    status: 403,
    en: 'Your role does not allow this action.',
    sr: 'Vaša uloga ne dozvoljava ovu radnju.',
    bs: 'Vaša uloga ne dozvoljava ovu radnju.',
    hr: 'Vaša uloga ne dopušta ovu radnju.',
  },
  'SVC-9002': { status: 404, en: 'Not found.', sr: 'Nije pronađeno.', bs: 'Nije pronađeno.', hr: 'Nije pronađeno.' },
  'SVC-9003': {
    status: 422,
    en: 'The request is invalid.',
    sr: 'Zahtev nije ispravan.',
    bs: 'Zahtjev nije ispravan.',
    hr: 'Zahtjev nije ispravan.',
  },
  'SVC-9004': {
    status: 500,
    en: 'An unexpected error occurred.',
    sr: 'Došlo je do neočekivane greške.',
    bs: 'Došlo je do neočekivane greške.',
    hr: 'Došlo je do neočekivane pogreške.',
  },
  'SVC-9005': {
    status: 429,
    en: 'Too many requests. Try again later.',
    sr: 'Previše zahteva. Pokušajte kasnije.',
    bs: 'Previše zahtjeva. Pokušajte kasnije.',
    hr: 'Previše zahtjeva. Pokušajte kasnije.',
  },
  'SVC-9006': {
    status: 500,
    en: 'A database error occurred.',
    sr: 'Došlo je do greške baze podataka.',
    bs: 'Došlo je do greške baze podataka.',
    hr: 'Došlo je do pogreške baze podataka.',
  },
  'SVC-9007': {
    status: 503,
    en: 'An external service is unavailable.',
    sr: 'Spoljni servis nije dostupan.',
    bs: 'Vanjski servis nije dostupan.',
    hr: 'Vanjska usluga nije dostupna.',
  },
  'SVC-9008': {
    status: 400,
    en: 'Invalid pagination or sorting parameters.',
    sr: 'Neispravni parametri stranica ili sortiranja.',
    bs: 'Neispravni parametri stranica ili sortiranja.',
    hr: 'Neispravni parametri stranica ili sortiranja.',
  },
  // Issue 25 item 2: a body over the service's limit (1 MiB of JSON); uploads keep their own codes.
  'SVC-9009': {
    status: 413,
    en: 'The request body is too large.',
    sr: 'Telo zahteva je preveliko.',
    bs: 'Tijelo zahtjeva je preveliko.',
    hr: 'Tijelo zahtjeva je preveliko.',
  },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof CATALOG;

export function messageFor(code: string, lang: Language): string {
  const entry = (CATALOG as Record<string, Entry>)[code] ?? CATALOG['SVC-9004'];
  return entry[lang];
}

export function statusFor(code: ErrorCode): number {
  return CATALOG[code].status;
}

/** Accept-Language -> the first supported language, else en (A18). */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())).find(Boolean);
      return { lang: tag.toLowerCase().split('-')[0], q: q ? Number(q[1]) : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { lang } of ranked) if ((LANGUAGES as readonly string[]).includes(lang)) return lang as Language;
  return 'en';
}
