app_name = "registers"
urlpatterns: list = []
