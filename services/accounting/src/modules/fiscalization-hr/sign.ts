import { SignedXml } from 'xml-crypto';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/**
 * Signs a fiscalization request with XML-DSig (xml-crypto): an enveloped signature over the whole
 * request (Reference URI=""), exclusive canonicalization, RSA-SHA256, the certificate in KeyInfo,
 * appended as the request element's last child, where both schemas put `ds:Signature`. Exclusive
 * c14n keeps the signature valid once the request is placed inside the SOAP body.
 */
export function signRequest(xml: string, keyPem: string, certPem: string): string {
  const sig = new SignedXml({
    privateKey: keyPem,
    publicCert: certPem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  sig.addReference({
    xpath: '/*',
    transforms: [ENVELOPED, EXC_C14N],
    digestAlgorithm: SHA256,
    uri: '',
    isEmptyUri: true,
  });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: '/*', action: 'append' } });
  return sig.getSignedXml();
}

/** Whether the request's signature verifies with the certificate (tests, and answers we keep). */
export function verifyRequest(signedXml: string, certPem: string): boolean {
  const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signedXml)?.[0];
  if (!signature) return false;
  const v = new SignedXml({ publicCert: certPem });
  v.loadSignature(signature);
  try {
    return v.checkSignature(signedXml);
  } catch {
    return false;
  }
}
