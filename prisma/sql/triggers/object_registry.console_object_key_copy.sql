CREATE TRIGGER console_object_key_copy AFTER INSERT OR DELETE OR UPDATE OF erdate, name, type, crdate ON object_registry FOR EACH ROW EXECUTE FUNCTION console.object_key_copy();
