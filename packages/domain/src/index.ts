// Public surface of @cyclebill/domain: pure rules shared by server and web.
export {};
