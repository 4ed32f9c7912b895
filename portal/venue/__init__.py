"""At the venue: accreditation cards (参赛证) and the scan that checks them."""
