import { einvoiceSr } from './einvoice.sr.js';

/** Bosnian messages of the e-invoice screens: the Serbian ones with the ijekavian and Bosnian wording; spread into full/bs.ts. */
export const einvoiceBs: typeof einvoiceSr = {
  ...einvoiceSr,
  'einvoice.sef.disabled': 'Slanje u SEF nije uključeno. Uključite ga u Postavkama, kartica E-fakture.',
  'einvoice.sef.requestId': 'ID zahtjeva',
  'einvoice.sef.updatedAt': 'Posljednja promjena',
  'einvoice.sef.cancelHelp': 'Otkazivanje je moguće dok kupac ne prihvati ili odbije fakturu.',
  'einvoice.sef.stornoNumber': 'Broj dokumenta o storniranju (nije obavezno)',
  'einvoice.sefStatus.OverDue': 'Dospjela',
  'einvoice.sefStatus.ReNotified': 'Ponovo obaviještena',
  'einvoice.fisc.errors': 'Odgovor Porezne uprave',
  'einvoice.fisc.pendingHelp': 'Porezna uprava nije odgovorila; fiskalizirajte ponovo da biste pokušali još jednom.',
  'einvoice.fisc.noCertificate': 'Prvo učitajte certifikat za fiskalizaciju u Postavkama, kartica E-fakture.',
  'einvoice.fisc.none': 'Još nije fiskalizirana.',
  'einvoice.fisc.fiscalize': 'Fiskaliziraj',
  'einvoice.fisc.again': 'Ponovo fiskaliziraj',
  'einvoice.fiscStatus.Fiscalized': 'Fiskalizirana',
  'einvoice.settings.sefIntro':
    'Fakture se registruju u SEF-u API ključem koji vaše preduzeće generiše u SEF-u (Podešavanja, Upravljanje API).',
  'einvoice.settings.apiKeySet': 'Ključ je sačuvan. Nikada se ne prikazuje; unesite novi da biste ga zamijenili.',
  'einvoice.settings.lastSync': 'Posljednje usklađivanje sa SEF-om',
  'einvoice.settings.webhook': 'Adresa za obavještenja iz SEF-a',
  'einvoice.settings.readOnly': 'Samo vlasnici i administratori mijenjaju ove postavke.',
  'einvoice.settings.ownerOnly': 'Samo vlasnik učitava certifikat.',
  'einvoice.settings.fiscIntro':
    'Svaka e-faktura se prijavljuje Poreznoj upravi, potpisana aplikacijskim certifikatom vašeg preduzeća.',
  'einvoice.settings.certificate': 'Certifikat (PKCS#12, .p12 ili .pfx)',
  'einvoice.settings.chooseFile': 'Odaberite datoteku',
  'einvoice.settings.password': 'Lozinka certifikata',
  'einvoice.settings.certificateSubject': 'Certifikat',
  'einvoice.settings.noCertificate': 'Certifikat još nije učitan.',
  'einvoice.settings.fiscEnabled': 'Fiskaliziraj e-fakture',
  'einvoice.settings.upload': 'Učitaj i sačuvaj',
  'einvoice.settings.notAvailable': 'Dostava e-faktura postoji za organizacije u Srbiji i Hrvatskoj.',
  'purchases.dueDate': 'Datum dospijeća',
  'purchases.unit': 'Jedinica mjere',
};
