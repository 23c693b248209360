def lookup(email: str) -> dict:
    return {"email": email, "company": email.split("@")[-1]}
